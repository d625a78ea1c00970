/*
 * util: allocation that dies on exhaustion, a growable string, errors and die().
 * Pure: no curses here; the screen registers die_hook to restore the terminal.
 */
#ifndef TUI_UTIL_H
#define TUI_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* A formatted string; you own it. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow *p so that it holds at least need elements of size each. */
#define ALLOC_GROW(p, need, alloc) do { \
	if ((need) > (alloc)) { \
		(alloc) = (alloc) ? (alloc) * 2 : 8; \
		if ((alloc) < (need)) (alloc) = (need); \
		(p) = xrealloc((p), (size_t)(alloc) * sizeof(*(p))); \
	} } while (0)

struct sbuf {
	char *buf;		/* always NUL-terminated once anything was added */
	size_t len, alloc;
};
#define SBUF_INIT { NULL, 0, 0 }
void sb_add(struct sbuf *sb, const char *s, size_t len);
void sb_adds(struct sbuf *sb, const char *s);
void sb_addf(struct sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Take the string out of sb, which is empty afterwards; you own the string. */
char *sb_detach(struct sbuf *sb);
void sb_reset(struct sbuf *sb);
void sb_free(struct sbuf *sb);

/*
 * Record a message for the status line and return -1, git style:
 *	return error("cannot read '%s'", path);
 */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The last message error() recorded, or "" */
const char *last_error(void);

/* Run before die() prints, e.g. to leave curses mode. */
extern void (*die_hook)(void);
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Read a whole file; NULL (errno set) on failure.  You own the buffer. */
char *read_file(const char *path, size_t *len);
/* Join a and b with a '/' unless b is absolute; you own the result. */
char *path_join(const char *a, const char *b);
/* Milliseconds on the monotonic clock. */
long long now_ms(void);

#endif
