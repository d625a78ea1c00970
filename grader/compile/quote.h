/*
 * quote: what a compiler's messages may show a student. A diagnostic
 * located in a file the grader allows (the submission, its exercise's
 * public header, the system's headers) is kept whole; one located anywhere
 * else is reduced to its file, line and kind, its text and source lines
 * dropped, so an `#include` of any readable file never prints that file.
 */
#ifndef CUDALINGS_QUOTE_H
#define CUDALINGS_QUOTE_H

#include <stdbool.h>

/* Whether messages may quote the file `path` (as the compiler printed it). */
typedef bool quote_allowed_fn(const char *path, void *ctx);

/*
 * `text` (gcc's "file:line:col: error: …" form, as submission_tidy_messages
 * makes nvcc's) with what `allowed` refuses left out and said so. You own
 * the result.
 */
char *quote_only_allowed(const char *text, quote_allowed_fn *allowed, void *ctx);

#endif
