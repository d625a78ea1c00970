/*
 * hint: which of an exercise's hints answer a verdict, in the order `h`
 * reveals them, and a hint's text as words and code.  Pure.
 *
 * A hint is plain text (the grader prints it as it is), not Markdown: a
 * `code span` is code, and so is a formula written bare, such as
 * a[r * cols + c] or row < rows && col < cols, so that no `*` is taken for
 * emphasis and the student sees what to type.
 */
#ifndef TUI_HINT_H
#define TUI_HINT_H

#include "tui/doc.h"
#include "tui/grader_json.h"
#include "tui/workbook.h"

/*
 * The hints for r, in the order they are revealed: those for its diagnoses
 * (in the order the grader gives them), then those for the stage it failed
 * at, then those for any failure ("fail", "any"); in each group, in the order
 * the workbook lists them (a question, the idea, the line).  r NULL (not
 * graded yet) counts as failing at correctness; r passed has none.
 * *out points into it->hints (you own the array, not the hints); *key is
 * the name the hints seen are counted under (the first group that has any).
 * Returns the count.
 */
int hint_list(const struct item *it, const struct result *r, const struct hint ***out, const char **key);

/*
 * The text split into runs of words (S_PLAIN) and code (S_CODE): code spans
 * lose their backticks, bare formulas are found.  Returns the count; you own
 * *runs and each text (free with spans_free).
 */
int hint_runs(const char *text, struct doc_span **runs);

#endif
