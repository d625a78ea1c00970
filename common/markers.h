/*
 * markers: the comments that mark the answers in a solution file, for the
 * grader (which makes starters of them) and the workbook (which shows a
 * solution without them).  Pure; needs nothing but libc.
 *
 *     // BEGIN SOLUTION: the TODO the student reads
 *     …the answer…
 *     // STARTER
 *     // …lines the starter has instead, commented out here…
 *     // END SOLUTION
 */
#ifndef COMMON_MARKERS_H
#define COMMON_MARKERS_H

#include <stdbool.h>
#include <stddef.h>

enum marker { MARKER_NONE, MARKER_BEGIN, MARKER_STARTER, MARKER_END };

/*
 * What the line (length bytes, no '\n') is: one of the marker comments, or
 * MARKER_NONE.  For a marker, *rest (when not NULL) gets the text after its
 * name (": the TODO …" after BEGIN SOLUTION).
 */
enum marker marker_of(const char *line, size_t length, const char **rest);

/*
 * The solution's lines as the student writes them, markers gone (the
 * workbook's solution page, `cudalings solution`): a BEGIN SOLUTION line
 * becomes the comment "// " + its TODO's text at its indent, a STARTER block
 * is left out, and each answer line comes with `answer` true. fn gets each
 * line without its '\n'. Returns the number of answer lines.
 */
typedef void marker_line_fn(const char *line, size_t length, bool answer, void *ctx);
int markers_solution_lines(const char *text, marker_line_fn *fn, void *ctx);

#endif
