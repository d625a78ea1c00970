/*
 * highlight: C and CUDA syntax colouring of source lines, for code blocks in
 * lessons and for the solution view, laid out in a doc.  Pure.
 */
#ifndef TUI_HIGHLIGHT_H
#define TUI_HIGHLIGHT_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/doc.h"

/*
 * Split one line (no '\n') into spans styled S_CODEBLOCK, S_KEYWORD, S_CUDA,
 * S_COMMENT, S_STRING or S_NUMBER.  *in_comment carries an open block comment
 * from one line to the next.  Returns the count; you own *spans and each text
 * (free with spans_free).
 */
int highlight_line(const char *line, size_t len, bool *in_comment, struct doc_span **spans);
/*
 * Append one source line (no '\n') to d as a new line after the prefix first:
 * tabs to 4 columns, coloured when colour is set (else S_CODEBLOCK); cut at
 * width columns onto lines that start with rest.  *in_comment as above.
 */
void highlight_put(struct doc *d, const char *line, size_t len, bool colour, bool *in_comment,
		   int width, const char *first, const char *rest, unsigned prefix_style);
/* Whether a fenced block's language is one we colour ("", "c", "cu", "cuda", "cpp", …) */
bool highlight_lang(const char *lang);

#endif
