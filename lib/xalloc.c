/* xalloc: allocation that dies on exhaustion (see xalloc.h). */
#include "lib/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/error.h"
#include "lib/exit.h"

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die(EXIT_ENVIRONMENT, "out of memory (asked for %zu bytes)", n);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die(EXIT_ENVIRONMENT, "out of memory (asked for %zu × %zu bytes)", n, size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die(EXIT_ENVIRONMENT, "out of memory (asked for %zu bytes)", n);
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	char *s;
	if (vasprintf(&s, fmt, ap) < 0)
		die(EXIT_ENVIRONMENT, "out of memory");
	return s;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}
