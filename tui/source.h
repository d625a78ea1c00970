/*
 * source: a solution as the student would write it, laid out in a doc.  Pure.
 */
#ifndef TUI_SOURCE_H
#define TUI_SOURCE_H

#include "tui/doc.h"

/*
 * Append the solution text to d at width columns, coloured as code: the
 * marker comments and the STARTER lines (what the starter has instead) are
 * gone, the TODO of each BEGIN SOLUTION stays as a plain comment, and the
 * lines of the answers are marked in the gutter.  Returns how many lines
 * of the file are answers.
 */
int source_solution(struct doc *d, const char *text, int width);

#endif
