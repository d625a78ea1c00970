/* Shared by the TUI's unit tests: temp directories and doc lines as text. */
#ifndef TESTS_TUI_HELPERS_H
#define TESTS_TUI_HELPERS_H

#include "tui/doc.h"

#define FIXTURE(name) "tests/tui/fixtures/" name

/* A fresh directory under /tmp; you own the string. */
char *temp_dir(void);
/* Make the directory dir/name. */
void make_dir(const char *dir, const char *name);
/* Write text to dir/name. */
void write_text(const char *dir, const char *name, const char *text);
/* Line i of d as plain text (a static buffer). */
const char *line_text(const struct doc *d, int i);
/* The index of the first line containing s, or -1. */
int find_line(const struct doc *d, const char *s);
/* The style of the first span of line i whose text contains s, or ~0u. */
unsigned style_of(const struct doc *d, int i, const char *s);

#endif
