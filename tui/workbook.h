/*
 * workbook: where the workbook is and what is in it, as `cudalings list
 * --json` says.  Pure.
 */
#ifndef TUI_WORKBOOK_H
#define TUI_WORKBOOK_H

/* where the workbook is: workbook_find_root() */
#include "common/root.h"

struct hint {
	char *when;		/* "fail", "compile", "correctness", "performance", "race", … */
	char *text;
};

struct item {
	char *name, *kind, *title;	/* kind: "exercise", "demo" or "lesson" */
	char *file, *solution, *lesson;	/* relative to the root; NULL when none (or not here) */
	int order;
	struct hint *hints;
	int nhints;
};

struct workbook {
	char *root;		/* absolute */
	struct item *items;	/* in course order */
	int n;
};

/* Parse the list; -1 with error() set when it is not the grader's JSON. */
int workbook_parse(const char *json, struct workbook *wb);
void workbook_free(struct workbook *wb);
/* The index of the item called name, or -1. */
int workbook_find(const struct workbook *wb, const char *name);

#endif
