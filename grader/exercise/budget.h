/*
 * budget: the figures of memory use an exercise may budget in workbook.json
 * ("budgets": sectors_per_request, …), named once for the manifest, which
 * accepts only these names, and for the diagnosis, which judges them
 * (grader/engine/diagnose_memory.c).
 */
#ifndef CUDALINGS_BUDGET_H
#define CUDALINGS_BUDGET_H

#include <stdbool.h>

struct budget_kind {
	const char *name; /* in workbook.json */
	const char *kind; /* the diagnostic's */
	bool advice;      /* said, never failed on: the figure does not predict the time */
};

/* The budget workbook.json names so; NULL where there is none of that name. */
const struct budget_kind *budget_kind_find(const char *name);

#endif
