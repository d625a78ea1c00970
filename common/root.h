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
/* root/rel (rel itself when it is absolute); you own it. */
char *root_path(const char *rel);
/*
 * The workbook.json in use, absolute: CUDALINGS_WORKBOOK names one anywhere
 * (a course folder of its own, graded by this checkout's machinery: the root
 * is then the folder with harness/runner.cu), else the root's. Its items'
 * files (solutions/, exercises/, slides/, harness/checks/, solutions/wrong/,
 * demos/) are found in workbook_dir(): "" for the root's own, "tests/typed/"
 * inside the root, an absolute "/x/y/" outside it. The caller must not free
 * either.
 */
const char *workbook_file(void);
const char *workbook_dir(void);

#endif
