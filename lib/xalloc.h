/*
 * xalloc: allocation that never returns NULL. Running out of memory is an
 * environment error: the program says so and exits 3.
 */
#ifndef LIB_XALLOC_H
#define LIB_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* Copies; you own them. */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* A newly allocated printf result; you own it. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Grow the array p so that it holds at least `need` elements; `alloc` counts what it holds. */
#define ALLOC_GROW(p, need, alloc)                                                   \
	do {                                                                         \
		if ((need) > (alloc)) {                                              \
			(alloc) = (alloc) ? (alloc) * 2 : 8;                         \
			if ((alloc) < (need))                                        \
				(alloc) = (need);                                    \
			(p) = xrealloc((p), (size_t)(alloc) * sizeof(*(p)));         \
		}                                                                    \
	} while (0)

#endif
