/* outcome: the names of verdicts, stages, performance verdicts and tiers (see outcome.h). */
#include "common/outcome.h"

#include <stddef.h>
#include <string.h>

#include "lib/util.h"

/* the JSON's words: stable, as batch's rows, Gradescope and the workbook read them */
static const char *const verdicts[] = { [VERDICT_PASS] = "pass", [VERDICT_FAIL] = "fail" };
static const char *const stages[] = {
	[STAGE_NONE] = NULL,
	[STAGE_COMPILE] = "compile",
	[STAGE_RUN] = "run",
	[STAGE_CORRECTNESS] = "correctness",
	[STAGE_PERFORMANCE] = "performance",
	[STAGE_SUBMISSION] = "submission",
};
static const char *const performances[] = {
	[PERFORMANCE_NOT_MEASURED] = "not_measured",
	[PERFORMANCE_PASS] = "pass",
	[PERFORMANCE_FAIL] = "fail",
};
static const char *const tiers[] = {
	[TIER_NONE] = NULL,
	[TIER_PASS] = "pass",
	[TIER_NEAR_GOLD] = "near_gold",
	[TIER_GOLD] = "gold",
};

#define NAME(table, i) ((unsigned)(i) < ARRAY_SIZE(table) ? (table)[i] : NULL)

const char *
verdict_name(enum verdict v)
{
	return NAME(verdicts, v);
}

const char *
stage_name(enum stage s)
{
	return NAME(stages, s);
}

const char *
performance_name(enum performance p)
{
	return NAME(performances, p);
}

const char *
tier_name(enum tier t)
{
	return NAME(tiers, t);
}

int
stage_from_name(const char *name)
{
	if (!name)
		return STAGE_NONE;
	for (size_t i = 1; i < ARRAY_SIZE(stages); i++)
		if (!strcmp(stages[i], name))
			return (int)i;
	return -1;
}
