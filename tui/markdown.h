/*
 * markdown: a lesson's Markdown laid out into styled lines at a width, parsed
 * by md4c.  Pure: no curses, so the layout is tested without a terminal.
 */
#ifndef TUI_MARKDOWN_H
#define TUI_MARKDOWN_H

#include <stddef.h>

#include "tui/doc.h"

/*
 * Append the Markdown src (len bytes) to d, laid out at width columns
 * (at least 20): headings, emphasis, lists, block quotes, tables, rules and
 * code blocks with C and CUDA highlighted.  ASCII only when d->ascii.
 * Returns 0, or -1 with error() set when md4c rejects the text.
 */
int md_render(struct doc *d, const char *src, size_t len, int width);

#endif
