#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int
error(const char *fmt, ...)
{
	va_list ap;
	fputs("cudalings: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

void
die(int status, const char *fmt, ...)
{
	va_list ap;
	fputs("cudalings: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die(3, "out of memory (asked for %zu bytes)", n);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die(3, "out of memory (asked for %zu × %zu bytes)", n, size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die(3, "out of memory (asked for %zu bytes)", n);
	return p;
}

char *
xstrdup(const char *s)
{
	return strcpy(xmalloc(strlen(s) + 1), s);
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		die(3, "out of memory");
	va_end(ap);
	return s;
}

void
buf_add(struct buf *b, const void *data, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->data = xrealloc(b->data, b->cap);
	}
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
	char *s;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		die(3, "out of memory");
	buf_add(b, s, (size_t)n);
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
	if (b->data)
		b->data[0] = 0;
}

void
buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

char *
buf_detach(struct buf *b)
{
	char *s = b->data ? b->data : xstrdup("");
	b->data = NULL;
	b->len = b->cap = 0;
	return s;
}

char *
read_file(const char *path, size_t *length)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return NULL;
	}
	struct buf b = { 0 };
	char chunk[65536];
	ssize_t n;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		buf_add(&b, chunk, (size_t)n);
	int saved = errno;
	close(fd);
	if (n < 0) {
		buf_free(&b);
		errno = saved;
		return NULL;
	}
	if (length)
		*length = b.len;
	return buf_detach(&b);
}

int
write_file_atomic(const char *path, const char *data, size_t length)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		free(tmp);
		return -1;
	}
	size_t done = 0;
	while (done < length) {
		ssize_t n = write(fd, data + done, length - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	int ok = done == length && fsync(fd) == 0;
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, path)) {
		int saved = errno;
		unlink(tmp);
		free(tmp);
		errno = saved;
		return -1;
	}
	free(tmp);
	return 0;
}

int
write_file_if_changed(const char *path, const char *data, size_t length)
{
	size_t old_length;
	char *old = read_file(path, &old_length);
	int same = old && old_length == length && !memcmp(old, data, length);
	free(old);
	return same ? 0 : write_file_atomic(path, data, length);
}

int
mkdir_p(const char *path)
{
	char tmp[PATH_MAX];
	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -1;
	for (char *p = tmp + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(tmp, 0755) && errno != EEXIST)
				return -1;
			*p = '/';
		}
	return mkdir(tmp, 0755) && errno != EEXIST ? -1 : 0;
}

bool
file_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

bool
is_directory(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int64_t
file_mtime(const char *path)
{
	struct stat st;
	if (stat(path, &st))
		return -1;
	return (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
}

static char *
find_root(void)
{
	const char *env = getenv("CUDALINGS_ROOT");
	char dir[PATH_MAX];
	if (env && *env) {
		char *probe = xasprintf("%s/workbook.json", env);
		bool ok = file_exists(probe);
		free(probe);
		if (ok && realpath(env, dir))
			return xstrdup(dir);
		die(2, "CUDALINGS_ROOT is '%s', but there is no workbook.json there", env);
	}
	/* the working directory and its parents, then the folder above build/cudalings */
	if (getcwd(dir, sizeof(dir))) {
		for (;;) {
			char *probe = xasprintf("%s/workbook.json", dir);
			bool ok = file_exists(probe);
			free(probe);
			if (ok)
				return xstrdup(dir);
			char *slash = strrchr(dir, '/');
			if (!slash || slash == dir)
				break;
			*slash = 0;
		}
	}
	ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n > 0) {
		dir[n] = 0;
		for (int up = 0; up < 2; up++) {
			char *slash = strrchr(dir, '/');
			if (slash)
				*slash = 0;
		}
		char *probe = xasprintf("%s/workbook.json", dir);
		bool ok = file_exists(probe);
		free(probe);
		if (ok)
			return xstrdup(dir);
	}
	die(2, "no workbook here: run cudalings inside the workbook folder (the one with workbook.json) "
	       "or set CUDALINGS_ROOT");
}

const char *
workbook_root(void)
{
	static char *root;
	if (!root)
		root = find_root();
	return root;
}

char *
root_path(const char *rel)
{
	return xasprintf("%s/%s", workbook_root(), rel);
}

uint64_t
hash_bytes(const void *data, size_t n, uint64_t h)
{
	const unsigned char *p = data;
	if (!h)
		h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

double
now_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int
edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int *row = xcalloc(lb + 1, sizeof(int));
	for (size_t j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int up = row[j];
			int best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	int d = row[lb];
	free(row);
	return d;
}
