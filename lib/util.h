/*
 * The utility layer every program of the project shares (grader/, tui/ and
 * the simulator's tools): this header brings in all of it but the process
 * spawner (lib/run.h), and holds the few helpers that have no module of
 * their own. Nothing here knows of CUDA, workbooks or screens.
 */
#ifndef LIB_UTIL_H
#define LIB_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "lib/args.h"
#include "lib/buf.h"
#include "lib/error.h"
#include "lib/file.h"
#include "lib/xalloc.h"

/* The number of elements of an array (not of a pointer: sizeof would give the pointer's size). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The monotonic clock, in seconds and in milliseconds. */
double now_seconds(void);
long long now_ms(void);
/* FNV-1a over the bytes, continuing from h (0 to start). */
uint64_t hash_bytes(const void *data, size_t n, uint64_t h);
/* Levenshtein distance, for "did you mean". */
int edit_distance(const char *a, const char *b);
/* The columns `s` takes on a terminal: one per character (UTF-8's lead bytes), not per byte. */
size_t utf8_columns(const char *s);
/* The length of the valid UTF-8 sequence at `s` (1 to 4), or 0 when its first byte starts none. */
int utf8_sequence(const unsigned char *s);
/*
 * `s` with every byte that is not part of valid UTF-8 written as the four
 * characters \xNN (a file name in Latin-1, say), so that JSON and CSV made
 * from it are valid UTF-8; NULL when `s` is valid already. You own it.
 */
char *utf8_escape_invalid(const char *s);

#endif
