/*
 * hints: which of an exercise's hints answer a verdict, and in what order
 * they are revealed, one at a time (the workbook's `h`, `cudalings hint`).
 * Pure; needs nothing but libc.
 *
 * The order: the hints for the verdict's diagnoses (in the grader's order),
 * then those for the stage it failed at (unless the first diagnosis makes
 * the stage's hints mislead: a refused call, a replayed round, a slow
 * kernel), then those for any failure ("fail", "any"); within each group as
 * the workbook lists them, its tiers: a question, then the idea, then the
 * line. Not graded yet counts as failing at correctness; a pass has none.
 */
#ifndef COMMON_HINTS_H
#define COMMON_HINTS_H

#include <stdbool.h>

struct hint_verdict {
	bool graded, pass;
	const char *stage;        /* where it stopped, "" or NULL for none */
	const char *const *kinds; /* the diagnoses' kinds, in the grader's order */
	int nkinds;
};

/*
 * Fills order[0..) (room for nhints) with indices into whens[0..nhints), the
 * `when` of each hint, and returns the count. *key is the name the hints
 * seen are counted under in the progress state (the first group that has
 * any): a hint seen for one failure is not spent on another.
 */
int hints_order(const char *const *whens, int nhints, const struct hint_verdict *v, int *order, const char **key);

#endif
