/*
 * `cudalings new NAME`: the four files of a new exercise (its workbook.json
 * entry, solution, check and lesson) and its generated starter, written so
 * that everything compiles, the exercise shows up in the list, and both
 * the starter and the unwritten solution fail until the instructor writes it.
 */
#ifndef CUDALINGS_SCAFFOLD_H
#define CUDALINGS_SCAFFOLD_H

#include <stdbool.h>
#include "lib/util.h"

/* Whether `name` can name an exercise: a C identifier in lower case, at most 40 characters. */
bool scaffold_valid_name(const char *name);

/*
 * Write the exercise `name` into the workbook at workbook_root(), after the
 * item `after` (NULL: at the end): a vector exercise (sizes n), or with
 * `two_d` a matrix one (sizes rows, cols; a 2-D grid of 32 × 8 threads). Refuses a name the workbook has or whose
 * files exist (-2), and fails on a file it cannot write (-1, nothing left
 * half-done). The paths it wrote are added to `written`, one a line.
 */
int scaffold_new(const char *name, const char *after, bool two_d, struct buf *written);

/*
 * workbook.json's text for the tree `root`: two-space indent, arrays of
 * plain values on one line, small objects inside items on one line, as
 * the file is written by hand. You own the result.
 */
struct cJSON;
char *scaffold_print_workbook(const struct cJSON *root);

#endif
