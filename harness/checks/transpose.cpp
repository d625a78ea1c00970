/* transpose and tile_transpose: dims are rows, cols of the input; the output is cols × rows. */
#include "harness/check.h"
#include "cudalings/transpose.h"

static void
buffers(struct check_case *c)
{
	check_buffer(c, "in", BUFFER_IN, c->dims[0], c->dims[1]);
	check_buffer(c, "out", BUFFER_OUT, c->dims[1], c->dims[0]);
}

static void
reference(const struct check_case *c, const void *const *in, struct proto_expect *const *out)
{
	const float *x = (const float *)in[0];
	size_t rows = c->dims[0], cols = c->dims[1];
	#pragma omp parallel for
	for (size_t j = 0; j < cols; j++)
		for (size_t i = 0; i < rows; i++) {
			out[1][j * rows + i].value = x[i * cols + j];
			out[1][j * rows + i].bound = 0; /* a transpose moves values: exact */
		}
}

static void
launch(const void *fn, const struct check_case *c, void *const *b)
{
	((transpose_launch_t *)fn)((const float *)b[0], (float *)b[1], c->dims[0], c->dims[1]);
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
