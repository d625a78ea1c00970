/* sliding_average: dims are n; out[i] is the mean of in[i-3..i+3], cut off at the ends. */
#include "harness/check.h"
#include "cudalings/sliding_average.h"

static const int radius = 3; /* the R of solutions/sliding_average.cu and the lesson */

static void
buffers(struct check_case *c)
{
	check_buffer(c, "in", BUFFER_IN, 1, c->dims[0]);
	check_buffer(c, "out", BUFFER_OUT, 1, c->dims[0]);
}

static void
reference(const struct check_case *c, const void *const *in, struct proto_expect *const *out)
{
	const float *x = (const float *)in[0];
	long n = c->dims[0];
	#pragma omp parallel for
	for (long i = 0; i < n; i++) {
		long first = i - radius > 0 ? i - radius : 0;
		long last = i + radius < n - 1 ? i + radius : n - 1;
		double sum = 0, mag = 0;
		for (long j = first; j <= last; j++) {
			sum += x[j];
			mag += fabs(x[j]);
		}
		out[1][i].value = sum / (double)(last - first + 1);
		/* float32 rounds each partial sum and the division: both grow with the mean of |terms| */
		out[1][i].bound = mag / (double)(last - first + 1);
	}
}

static void
launch(const void *fn, const struct check_case *c, void *const *b)
{
	((sliding_average_launch_t *)fn)((const float *)b[0], (float *)b[1], c->dims[0]);
}

static double
bytes(const struct check_case *c)
{
	return 8.0 * c->dims[0];
}

static double
flops(const struct check_case *c)
{
	return (2.0 * radius + 1) * c->dims[0];
}

const struct check check_definition = { buffers, reference, launch, bytes, flops };
