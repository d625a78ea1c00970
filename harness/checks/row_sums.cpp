/* row_sums (demo): dims are rows, cols; sums[r] is the sum of row r. */
#include "harness/check.h"
#include "cudalings/row_sums.h"

static void
buffers(struct check_case *c)
{
	check_buffer(c, "a", BUFFER_IN, c->dims[0], c->dims[1]);
	check_buffer(c, "sums", BUFFER_OUT, 1, c->dims[0]);
}

static void
reference(const struct check_case *c, const void *const *in, struct proto_expect *const *out)
{
	const float *x = (const float *)in[0];
	size_t rows = c->dims[0], cols = c->dims[1];
	#pragma omp parallel for
	for (size_t r = 0; r < rows; r++) {
		double sum = 0, mag = 0;
		for (size_t j = 0; j < cols; j++) {
			double v = x[r * cols + j];
			sum += v;
			mag += fabs(v);
		}
		out[1][r].value = sum;
		out[1][r].bound = mag;
	}
}

static void
launch(const void *fn, const struct check_case *c, void *const *b)
{
	((row_sums_launch_t *)fn)((const float *)b[0], (float *)b[1], c->dims[0], c->dims[1]);
}

static double
bytes(const struct check_case *c)
{
	return 4.0 * c->dims[0] * c->dims[1] + 4.0 * c->dims[0];
}

static double
flops(const struct check_case *c)
{
	return (double)c->dims[0] * c->dims[1];
}

const struct check check_definition = { buffers, reference, launch, bytes, flops };
