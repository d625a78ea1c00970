/* occupancy (demo): dims are n; out = 2 × in, however the launch is shaped. */
#include "harness/check.h"
#include "cudalings/occupancy.h"

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
	size_t n = c->dims[0];
	#pragma omp parallel for
	for (size_t i = 0; i < n; i++) {
		double v = 2.0 * x[i];
		out[1][i].value = v;
		out[1][i].bound = fabs(v);
	}
}

static void
launch(const void *fn, const struct check_case *c, void *const *b)
{
	((occupancy_launch_t *)fn)((const float *)b[0], (float *)b[1], c->dims[0]);
}

static double
bytes(const struct check_case *c)
{
	return 8.0 * c->dims[0];
}

static double
flops(const struct check_case *c)
{
	return c->dims[0];
}

const struct check check_definition = { buffers, reference, launch, bytes, flops };
