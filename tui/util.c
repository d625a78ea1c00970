#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void (*die_hook)(void);

void
die(const char *fmt, ...)
{
	va_list ap;

	if (die_hook)
		die_hook();
	fputs("cudalings-tui: fatal: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(128);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory (%zu × %zu bytes)", n, size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

static char *
xvasprintf(const char *fmt, va_list ap)
{
	va_list ap2;
	int n;
	char *p;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		die("bad format '%s'", fmt);
	p = xmalloc((size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

void
sb_add(struct sbuf *sb, const char *s, size_t len)
{
	if (sb->len + len + 1 > sb->alloc) {
		sb->alloc = (sb->len + len + 1) * 2;
		sb->buf = xrealloc(sb->buf, sb->alloc);
	}
	memcpy(sb->buf + sb->len, s, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void
sb_adds(struct sbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void
sb_addf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	sb_adds(sb, p);
	free(p);
}

char *
sb_detach(struct sbuf *sb)
{
	char *p = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return p;
}

void
sb_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void
sb_free(struct sbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

static char error_buf[512];

int
error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(error_buf, sizeof(error_buf), fmt, ap);
	va_end(ap);
	return -1;
}

const char *
last_error(void)
{
	return error_buf;
}

char *
read_file(const char *path, size_t *lenp)
{
	FILE *f = fopen(path, "rb");
	struct sbuf sb = SBUF_INIT;
	char chunk[8192];
	size_t n;
	int saved;

	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		sb_add(&sb, chunk, n);
	if (ferror(f)) {
		saved = errno;
		fclose(f);
		sb_free(&sb);
		errno = saved;
		return NULL;
	}
	fclose(f);
	if (lenp)
		*lenp = sb.len;
	return sb_detach(&sb);
}

char *
path_join(const char *a, const char *b)
{
	if (b[0] == '/' || !a || !*a)
		return xstrdup(b);
	return xasprintf("%s%s%s", a, a[strlen(a) - 1] == '/' ? "" : "/", b);
}

long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
