/* Small helpers every grader module uses: errors, memory, strings, files. */
#ifndef CUDALINGS_UTIL_H
#define CUDALINGS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Print "cudalings: <message>" on stderr and return -1, git style. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print and exit with `status`; only main-level code calls it. */
void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* A newly allocated printf result; the caller owns it. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable byte buffer, always NUL-terminated. */
struct buf {
	char *data;
	size_t len, cap;
};
void buf_add(struct buf *b, const void *data, size_t n);
void buf_addf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_addstr(struct buf *b, const char *s);
/* Drop the first n bytes. */
void buf_consume(struct buf *b, size_t n);
void buf_reset(struct buf *b);
void buf_free(struct buf *b);
/* Detach the string; you now own it and the buffer is empty. */
char *buf_detach(struct buf *b);

/* Read a whole file; NULL with errno set on failure. You own the result. */
char *read_file(const char *path, size_t *length);
/* Write through a temporary file and rename, so a reader never sees half a file. */
int write_file_atomic(const char *path, const char *data, size_t length);
/* Write only when the content differs, to keep the mtime for build caching. */
int write_file_if_changed(const char *path, const char *data, size_t length);
int mkdir_p(const char *path);
bool file_exists(const char *path);
bool is_directory(const char *path);
/* Modification time in nanoseconds, or -1 if the file is missing. */
int64_t file_mtime(const char *path);

/* The directory that holds workbook.json, found once; the caller must not free it. */
const char *workbook_root(void);
/* root/rel, newly allocated. */
char *root_path(const char *rel);

uint64_t hash_bytes(const void *data, size_t n, uint64_t h);
double now_seconds(void);
/* Levenshtein distance, for "did you mean". */
int edit_distance(const char *a, const char *b);

#endif
