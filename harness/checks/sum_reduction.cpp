/* sum_reduction: dims are n; one output, the sum of the n inputs. */
#include "harness/check.h"
#include "cudalings/sum_reduction.h"

static void
buffers(struct check_case *c)
{
	check_buffer(c, "in", BUFFER_IN, 1, c->dims[0]);
	check_buffer(c, "sum", BUFFER_OUT, 1, 1);
}

static void
reference(const struct check_case *c, const void *const *in, struct proto_expect *const *out)
{
	const float *x = (const float *)in[0];
	long n = c->dims[0];
	double sum = 0, mag = 0;
	#pragma omp parallel for reduction(+ : sum, mag)
	for (long i = 0; i < n; i++) {
		sum += x[i];
		mag += fabs(x[i]);
	}
	out[1][0].value = sum;
	out[1][0].bound = mag; /* whatever the order of the float additions, their error grows with Σ|x| */
}

static void
launch(const void *fn, const struct check_case *c, void *const *b)
{
	((sum_reduction_launch_t *)fn)((const float *)b[0], (float *)b[1], c->dims[0]);
}

static double
bytes(const struct check_case *c)
{
	return 4.0 * c->dims[0] + 4.0;
}

static double
flops(const struct check_case *c)
{
	return (double)c->dims[0];
}

const struct check check_definition = { buffers, reference, launch, bytes, flops };
