/*
 * Comparing a kernel's raw output with the judge's reference, and saying
 * what is wrong in the student's terms: which elements, by how much, where.
 */
#ifndef CUDALINGS_COMPARE_H
#define CUDALINGS_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include "protocol.h"

#define COMPARE_SHOWN 3

struct mismatch {
	size_t index;
	double expected;
	float actual;
	bool updated_unset;
	bool never_written;
	bool unstored_shared;
};

struct comparison {
	size_t total, wrong;
	size_t unwritten;   /* still the poison pattern: no thread wrote them */
	size_t updated_unset; /* the poison in one launch, changed in a launch over another: read before set */
	size_t unstored_shared; /* the simulator's fill of shared memory (sim/fill.h): copied from a slot nobody stored */
	size_t not_finite;  /* NaN or infinity that the kernel wrote */
	size_t shown;
	struct mismatch first[COMPARE_SHOWN];
	size_t row_min, row_max, col_min, col_max; /* where the wrong ones are */
};

/* The bit pattern the harness fills outputs with before every launch. */
bool compare_is_poison(float v);

/*
 * Compare n elements laid out as rows of `cols`. `second`, when not NULL, is
 * a second launch's output over PROTO_SECOND_POISON_BITS: an element that
 * held the poison in the first but not that in the second was updated from
 * what it found, not left alone.
 */
void compare_output(const float *actual, const float *second, const struct proto_expect *expected, size_t n,
		    size_t cols, struct comparison *r);

/*
 * One paragraph for the student: "sums[17] is 3.5, expected 4.25 (12 of 1,000
 * elements wrong, all in columns 0-31)". `rows` = 1 means a vector. You own it.
 */
char *compare_describe(const struct comparison *r, const char *name, size_t rows, size_t cols);

/* 16777216 → "16,777,216" into out. */
void format_count(size_t n, char *out, size_t size);

#endif
