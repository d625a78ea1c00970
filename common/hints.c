/* hints: the hints that answer a verdict, in the order they are revealed (see hints.h). */
#include "common/hints.h"

#include <string.h>

#include "lib/util.h"

/* Add the hints for `when` to order[0..n), skipping those in already; returns the new n. */
static int
add_group(const char *const *whens, int nhints, const char *when, int *order, int n)
{
	for (int i = 0; i < nhints; i++) {
		bool dup = false;
		if (strcmp(whens[i], when))
			continue;
		for (int k = 0; k < n; k++)
			dup |= order[k] == i;
		if (!dup)
			order[n++] = i;
	}
	return n;
}

/* A refused call is no compiler error, a replayed round no wrong index (as in grader/engine/verdict.c). */
static bool
stage_misleads(const struct hint_verdict *v)
{
	static const char *const kinds[] = { "refused", "timing", "slow" };
	for (size_t i = 0; v->nkinds && i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(v->kinds[0], kinds[i]))
			return true;
	return false;
}

int
hints_order(const char *const *whens, int nhints, const struct hint_verdict *v, int *order, const char **key)
{
	const char *stage = v->graded && v->stage && *v->stage ? v->stage : "correctness";
	int n = 0;
	*key = stage;
	if (v->graded && v->pass)
		return 0;
	for (int i = 0; v->graded && i < v->nkinds; i++) {
		int before = n;
		n = add_group(whens, nhints, v->kinds[i], order, n);
		if (!before && n)
			*key = v->kinds[i];
	}
	if (!v->graded || !stage_misleads(v))
		n = add_group(whens, nhints, stage, order, n);
	n = add_group(whens, nhints, "fail", order, n);
	return add_group(whens, nhints, "any", order, n);
}
