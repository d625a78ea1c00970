/*
 * The interface of an exercise's check (harness/checks/NAME.cpp).
 *
 * A check is plain host C++ with no CUDA in it: it declares the buffers of a
 * case, computes the CPU reference, and calls the launcher with device
 * pointers that the harness allocated. The same object serves the runner
 * (where the student's code runs) and the judge (where only the reference
 * runs), so a check cannot tell which one it is in and has no reason to.
 */
#ifndef CUDALINGS_CHECK_H
#define CUDALINGS_CHECK_H

#include <stddef.h>
#include <math.h>
#include "protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

enum buffer_role { BUFFER_IN, BUFFER_OUT };

struct buffer_spec {
	const char *name;
	enum buffer_role role;
	size_t rows, cols; /* the shape messages use: out[row][col]; a vector has rows = 1 */
};

struct check_case {
	int dims[PROTO_MAX_DIMS];
	int nbuffers;
	struct buffer_spec spec[PROTO_MAX_BUFFERS];
};

struct check {
	/* Declare the case's buffers with check_buffer(), in the launcher's order. */
	void (*buffers)(struct check_case *c);
	/*
	 * The CPU reference. bufs[k] holds input k (NULL for outputs); for each
	 * output k fill expected[k][i].value in double precision and
	 * expected[k][i].bound with the magnitude float32 rounding error grows
	 * with (the sum of |terms| for a sum or a dot product, |value| for a
	 * copy): the judge turns it into the allowed error with the exercise's
	 * tolerance from workbook.json.
	 */
	void (*reference)(const struct check_case *c, const float *const *bufs,
			  struct proto_expect *const *expected);
	/* Call the launcher `fn` with the case's device buffers, in order. */
	void (*launch)(const void *fn, const struct check_case *c, void *const *bufs);
	/* The fewest bytes the kernel must move: each input read once, each output written once. */
	double (*bytes)(const struct check_case *c);
	/* Floating-point operations; 0 for memory-bound exercises. */
	double (*flops)(const struct check_case *c);
};

/* Every check defines exactly this object. */
extern const struct check check_definition;

void check_buffer(struct check_case *c, const char *name, enum buffer_role role,
		  size_t rows, size_t cols);

static inline size_t
check_elements(const struct buffer_spec *b)
{
	return b->rows * b->cols;
}

#ifdef __cplusplus
}
#endif
#endif
