/*
 * buf: a growable byte buffer (git's strbuf). Its data is never NULL: it
 * starts as BUF_INIT (or buf_init), pointing at a shared empty string, and
 * is always NUL-terminated, so b.data is its text at any time. A buffer
 * zeroed otherwise ({ 0 }, calloc) must go through buf_init before its data
 * is read.
 */
#ifndef LIB_BUF_H
#define LIB_BUF_H

#include <stddef.h>

struct buf {
	char *data;	/* the bytes and a NUL; buf_empty (never written) while cap is 0 */
	size_t len, cap;
};
/* what every empty buffer points at; nothing writes it */
extern char buf_empty[1];
#define BUF_INIT { buf_empty, 0, 0 }

void buf_init(struct buf *b);
void buf_add(struct buf *b, const void *data, size_t n);
void buf_addstr(struct buf *b, const char *s);
void buf_addf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Drop the first n bytes. */
void buf_consume(struct buf *b, size_t n);
/* Empty it, keeping the storage. */
void buf_reset(struct buf *b);
/* Free the storage: the buffer is empty again (BUF_INIT), ready for use. */
void buf_free(struct buf *b);
/* The text: b->data ("" too for a zeroed buffer not yet through buf_init). */
const char *buf_str(const struct buf *b);
/* Detach the string ("" when empty): you now own it, and the buffer is empty. */
char *buf_detach(struct buf *b);

#endif
