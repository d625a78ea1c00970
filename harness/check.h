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
#include "harness/dtype.h"
#include "harness/protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

enum buffer_role { BUFFER_IN, BUFFER_OUT };

struct buffer_spec {
	const char *name;
	enum buffer_role role;
	enum dtype type;   /* harness/dtype.h: float32 unless check_buffer_typed says otherwise */
	size_t rows, cols; /* the shape messages use: out[row][col]; a vector has rows = 1 */
	double lo, hi;     /* an input's values are drawn from lo..hi (check_range); floats default to -1..1,
			      integers to the whole type */
};

struct check_case {
	int dims[PROTO_MAX_DIMS];
	int nbuffers;
	struct buffer_spec spec[PROTO_MAX_BUFFERS];
	/* The judge grades a large timed output on a sample of its elements: a reference may skip an
	   output's rows that hold none of them (check_row_judged). NULL: every row is judged. */
	const unsigned char *judged_rows[PROTO_MAX_BUFFERS];
};

struct check {
	/* Declare the case's buffers with check_buffer(), in the launcher's order. */
	void (*buffers)(struct check_case *c);
	/*
	 * The CPU reference. in[k] holds input k as its type lays it out
	 * ((const float *)in[0], (const unsigned char *)in[1]; NULL for
	 * outputs); for each output k fill expected[k][i].value in double
	 * precision and, for a float output, expected[k][i].bound with the
	 * magnitude its rounding error grows with (the sum of |terms| for a sum
	 * or a dot product, |value| for a copy): the judge turns it into the
	 * allowed error with the exercise's tolerance from workbook.json. An
	 * integer output is compared exactly; its bound is not read.
	 */
	void (*reference)(const struct check_case *c, const void *const *in,
			  struct proto_expect *const *expected);
	/* Call the launcher `fn` with the case's device buffers, in order. */
	void (*launch)(const void *fn, const struct check_case *c, void *const *bufs);
	/* The fewest bytes the kernel must move: each input read once, each output written once
	   (check_bytes_moved counts exactly that from the buffers' types). */
	double (*bytes)(const struct check_case *c);
	/* Floating-point operations; 0 for memory-bound exercises. */
	double (*flops)(const struct check_case *c);
};

/* Every check defines exactly this object. */
extern const struct check check_definition;

/* Declare a float32 buffer (an input drawn from -1..1); returns it, for check_range. */
struct buffer_spec *check_buffer(struct check_case *c, const char *name, enum buffer_role role,
				 size_t rows, size_t cols);
/* Declare a buffer of any type of harness/dtype.h; its C type in the launcher's signature must match. */
struct buffer_spec *check_buffer_typed(struct check_case *c, const char *name, enum buffer_role role,
				       enum dtype type, size_t rows, size_t cols);
/*
 * Draw an input's values from lo..hi: floats uniform in [lo, hi], integers
 * uniform over lo..hi inclusive (uint8 pixels 0..255, int32 keys 0..999).
 * The range must lie inside the type.
 */
void check_range(struct buffer_spec *b, double lo, double hi);
/* Each input read once and each output written once, in bytes, by the buffers' types. */
double check_bytes_moved(const struct check_case *c);

static inline size_t
check_elements(const struct buffer_spec *b)
{
	return b->rows * b->cols;
}

/* Whether the judge compares output k's row `row`: a reference whose work is per row (a matrix
   product's) may skip the rest, and must fill every row this says yes to. */
static inline int
check_row_judged(const struct check_case *c, int k, size_t row)
{
	return !c->judged_rows[k] || c->judged_rows[k][row];
}

static inline size_t
check_bytes(const struct buffer_spec *b)
{
	return b->rows * b->cols * dtype_size(b->type);
}

#ifdef __cplusplus
}
#endif
#endif
