/*
 * entity: an HTML entity ("&times;", "&#8594;") as UTF-8, for the lessons'
 * Markdown (tui/markdown.c). Pure.
 */
#ifndef TUI_ENTITY_H
#define TUI_ENTITY_H

#include <stddef.h>

#define ENTITY_UTF8_MAX 8

/* The entity s (len bytes, "&" to ";") as UTF-8 in out; its length, or 0 for one it does not know. */
size_t entity_utf8(const char *s, size_t len, char out[ENTITY_UTF8_MAX]);

#endif
