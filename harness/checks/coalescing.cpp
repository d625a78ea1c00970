/* coalescing (demo): dims are n; out = a + b. */
#include "harness/check.h"
#include "cudalings/coalescing.h"

static void
buffers(struct check_case *c)
{
	check_buffer(c, "a", BUFFER_IN, 1, c->dims[0]);
	check_buffer(c, "b", BUFFER_IN, 1, c->dims[0]);
	check_buffer(c, "out", BUFFER_OUT, 1, c->dims[0]);
}

static void
reference(const struct check_case *c, const void *const *in, struct proto_expect *const *out)
{
	const float *a = (const float *)in[0], *b = (const float *)in[1];
	size_t n = c->dims[0];
	#pragma omp parallel for
	for (size_t i = 0; i < n; i++) {
		double v = (double)a[i] + (double)b[i];
		out[2][i].value = v;
		out[2][i].bound = fabs(v);
	}
}

static void
launch(const void *fn, const struct check_case *c, void *const *b)
{
	((coalescing_launch_t *)fn)((const float *)b[0], (const float *)b[1], (float *)b[2], c->dims[0]);
}

static double
bytes(const struct check_case *c)
{
	return 12.0 * c->dims[0];
}

static double
flops(const struct check_case *c)
{
	return c->dims[0];
}

const struct check check_definition = { buffers, reference, launch, bytes, flops };
