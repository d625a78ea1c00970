/* indices_2d (demo): dims are rows, cols; no input: the thread at (x, y) writes xs = x, ys = y at row y, column x. */
#include "harness/check.h"
#include "cudalings/indices_2d.h"

static void
buffers(struct check_case *c)
{
	check_buffer(c, "xs", BUFFER_OUT, c->dims[0], c->dims[1]);
	check_buffer(c, "ys", BUFFER_OUT, c->dims[0], c->dims[1]);
}

static void
reference(const struct check_case *c, const void *const *in, struct proto_expect *const *out)
{
	size_t rows = c->dims[0], cols = c->dims[1];
	#pragma omp parallel for
	for (size_t r = 0; r < rows; r++)
		for (size_t j = 0; j < cols; j++) {
			/* whole numbers below 2^24: exact in float */
			out[0][r * cols + j].value = (double)j;
			out[0][r * cols + j].bound = 0;
			out[1][r * cols + j].value = (double)r;
			out[1][r * cols + j].bound = 0;
		}
}

static void
launch(const void *fn, const struct check_case *c, void *const *b)
{
	((indices_2d_launch_t *)fn)((float *)b[0], (float *)b[1], c->dims[0], c->dims[1]);
}

static double
bytes(const struct check_case *c)
{
	return 8.0 * c->dims[0] * c->dims[1];
}

static double
flops(const struct check_case *c)
{
	return 0;
}

const struct check check_definition = { buffers, reference, launch, bytes, flops };
