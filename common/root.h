/*
 * root: where the workbook is — the folder that holds workbook.json —
 * for the grader (every build path is relative to it) and the workbook.
 */
#ifndef COMMON_ROOT_H
#define COMMON_ROOT_H

/*
 * $CUDALINGS_ROOT; else the working directory or the nearest parent that
 * holds workbook.json; else the folder above the program's build/ (where
 * build/cudalings and build/cudalings-tui live). NULL, error() saying why,
 * when there is none. You own it.
 */
char *workbook_find_root(void);
/* The same, found once; exits 2 (usage) saying why when there is none. The caller must not free it. */
const char *workbook_root(void);
/* root/rel; you own it. */
char *root_path(const char *rel);

#endif
