/*
 * Comparing a kernel's raw output with the judge's reference, and saying
 * what is wrong in the student's terms: which elements, by how much, where.
 */
#ifndef CUDALINGS_COMPARE_H
#define CUDALINGS_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "harness/protocol.h"

#define COMPARE_SHOWN 3

struct mismatch {
	size_t index;
	double expected;
	double actual;  /* as its type reads it: exact for every type */
	bool updated_unset;
	bool never_written;
	bool unstored_shared;
	bool unset_local;  /* the simulator's fill of a local variable read before it was set (sim/fill.h) */
};

struct comparison {
	uint32_t dtype;     /* harness/dtype.h: how the elements were compared (integers exactly) */
	size_t total, wrong;
	size_t sampled_from; /* the output's whole count when `total` of them were a sample; else 0 */
	size_t unwritten;   /* still the poison pattern: no thread wrote them */
	size_t updated_unset; /* the poison in one launch, changed in a launch over another: read before set */
	size_t unstored_shared; /* the simulator's fill of shared memory (sim/fill.h): copied from a slot nobody stored */
	size_t unset_local; /* the simulator's fill of a local variable (sim/fill.h): read before it was set */
	size_t not_finite;  /* NaN or infinity that the kernel wrote */
	size_t shown;
	struct mismatch first[COMPARE_SHOWN];
	size_t row_min, row_max, col_min, col_max; /* where the wrong ones are */
};

/*
 * Compare n elements of type `dtype` (harness/dtype.h), laid out as rows of
 * `cols`: a float within its bound and finite, an integer exactly. `second`,
 * when not NULL, is a second launch's output over the second poison: an
 * element that held the poison in the first but not that in the second was
 * updated from what it found, not left alone. With `chunks` (nchunks of
 * them), the n elements are a sample of the output, chunk after chunk: the
 * elements, rows and columns named are the output's own.
 */
void compare_output(const void *actual, const void *second, uint32_t dtype, const struct proto_expect *expected,
		    size_t n, size_t cols, const struct proto_chunk *chunks, size_t nchunks, struct comparison *r);

/*
 * One paragraph for the student: "sums[17] is 3.5, expected 4.25 (12 of 1,000
 * elements wrong, all in columns 0-31)". `rows` = 1 means a vector. You own it.
 */
char *compare_describe(const struct comparison *r, const char *name, size_t rows, size_t cols);

/* 16777216 → "16,777,216" into out. */
void compare_format_count(size_t n, char *out, size_t size);

#endif
