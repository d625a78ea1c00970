/* matrix_add: dims are rows, cols. */
#include "harness/check.h"
#include "cudalings/matrix_add.h"

static void
buffers(struct check_case *c)
{
	check_buffer(c, "a", BUFFER_IN, c->dims[0], c->dims[1]);
	check_buffer(c, "b", BUFFER_IN, c->dims[0], c->dims[1]);
	check_buffer(c, "out", BUFFER_OUT, c->dims[0], c->dims[1]);
}

static void
reference(const struct check_case *c, const void *const *in, struct proto_expect *const *out)
{
	const float *a = (const float *)in[0], *b = (const float *)in[1];
	size_t n = (size_t)c->dims[0] * c->dims[1];
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
	((matrix_add_launch_t *)fn)((const float *)b[0], (const float *)b[1], (float *)b[2],
				    c->dims[0], c->dims[1]);
}

static double
bytes(const struct check_case *c)
{
	return 12.0 * c->dims[0] * c->dims[1];
}

static double
flops(const struct check_case *c)
{
	return (double)c->dims[0] * c->dims[1];
}

const struct check check_definition = { buffers, reference, launch, bytes, flops };
