/*
 * frontend_cache: nvcc's front end judges a file on the simulator once for
 * what it reads (frontend_cache.c says how an entry is keyed). A refusal is
 * never remembered: nvcc runs again and says why.
 */
#ifndef CUDALINGS_FRONTEND_CACHE_H
#define CUDALINGS_FRONTEND_CACHE_H

#include <stdbool.h>

#include "grader/compile/submission.h"

/* Whether nvcc's front end accepted this file before: the same command, and every file it read the same. */
bool frontend_cache_accepts(const struct student_build *s);
/* Remember that the front end, just run with s->frontend_argv, accepted the file. */
void frontend_cache_remember(const struct student_build *s);

#endif
