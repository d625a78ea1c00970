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

#include "lib/buf.h"
#include "lib/error.h"
#include "lib/file.h"
#include "lib/xalloc.h"

/* The monotonic clock, in seconds and in milliseconds. */
double now_seconds(void);
long long now_ms(void);
/* FNV-1a over the bytes, continuing from h (0 to start). */
uint64_t hash_bytes(const void *data, size_t n, uint64_t h);
/* Levenshtein distance, for "did you mean". */
int edit_distance(const char *a, const char *b);

#endif
