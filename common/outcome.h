/*
 * outcome: how a grading ends — its verdict, the stage it stopped at, the
 * performance verdict and a pass's tier — as enums, with the one table of
 * the names the JSON report, the text report and batch's rows use.
 */
#ifndef COMMON_OUTCOME_H
#define COMMON_OUTCOME_H

/* zero is a failure: a result nobody decided never passes */
enum verdict { VERDICT_FAIL, VERDICT_PASS };

/* Where a failing grading stopped; in this order, the first failure decides. */
enum stage {
	STAGE_NONE,		/* it passed: JSON null */
	STAGE_COMPILE,
	STAGE_RUN,
	STAGE_CORRECTNESS,
	STAGE_PERFORMANCE,
	STAGE_SUBMISSION,	/* batch only: the file itself was refused (empty, binary, too large) */
};

enum performance { PERFORMANCE_NOT_MEASURED, PERFORMANCE_PASS, PERFORMANCE_FAIL };

/* A pass's standing against the gold solution; TIER_NONE for a failure. */
enum tier { TIER_NONE, TIER_PASS, TIER_NEAR_GOLD, TIER_GOLD };

/* The names: "pass", "compile", "not_measured", "near_gold"; NULL for STAGE_NONE and TIER_NONE. */
const char *verdict_name(enum verdict v);
const char *stage_name(enum stage s);
const char *performance_name(enum performance p);
const char *tier_name(enum tier t);
/* The stage a name stands for; STAGE_NONE for NULL; -1 for a name that is none. */
int stage_from_name(const char *name);

#endif
