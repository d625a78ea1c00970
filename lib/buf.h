/*
 * buf: a growable byte buffer, always NUL-terminated once anything was added
 * (git's strbuf). Zero-initialised ({ 0 } or BUF_INIT) is an empty buffer.
 */
#ifndef LIB_BUF_H
#define LIB_BUF_H

#include <stddef.h>

struct buf {
	char *data;	/* NULL until something is added */
	size_t len, cap;
};
#define BUF_INIT { NULL, 0, 0 }

void buf_add(struct buf *b, const void *data, size_t n);
void buf_addstr(struct buf *b, const char *s);
void buf_addf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Drop the first n bytes. */
void buf_consume(struct buf *b, size_t n);
/* Empty it, keeping the storage. */
void buf_reset(struct buf *b);
void buf_free(struct buf *b);
/* The text, "" when nothing was added; the buffer still owns it. */
const char *buf_str(const struct buf *b);
/* Detach the string ("" when empty): you now own it, and the buffer is empty. */
char *buf_detach(struct buf *b);

#endif
