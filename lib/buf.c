/* buf: the growable byte buffer (see buf.h). */
#include "lib/buf.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

char buf_empty[1];

void
buf_init(struct buf *b)
{
	b->data = buf_empty;
	b->len = b->cap = 0;
}

void
buf_add(struct buf *b, const void *data, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		/* no storage of its own yet (buf_empty, or NULL when zeroed): nothing to keep */
		b->data = xrealloc(b->cap ? b->data : NULL, cap);
		b->cap = cap;
	}
	if (n)
		memcpy(b->data + b->len, data, n);
	b->len += n;
	b->data[b->len] = 0;
}

void
buf_addstr(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	buf_addstr(b, s);
	free(s);
}

void
buf_consume(struct buf *b, size_t n)
{
	if (n >= b->len) {
		buf_reset(b);
		return;
	}
	memmove(b->data, b->data + n, b->len - n);
	b->len -= n;
	b->data[b->len] = 0;
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->cap)
		b->data[0] = 0;
	else
		b->data = buf_empty;
}

void
buf_free(struct buf *b)
{
	if (b->cap)
		free(b->data);
	buf_init(b);
}

const char *
buf_str(const struct buf *b)
{
	return b->data ? b->data : ""; /* a zeroed buffer not yet through buf_init reads as empty too */
}

char *
buf_detach(struct buf *b)
{
	char *s = b->cap ? b->data : xstrdup("");
	buf_init(b);
	return s;
}
