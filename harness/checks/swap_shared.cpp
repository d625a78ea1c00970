/* swap_shared (demo): dims are n; every piece of 256 elements (the last may be shorter) reversed. */
#include "harness/check.h"
#include "cudalings/swap_shared.h"

static const size_t piece = 256; /* PIECE in solutions/swap_shared.cu */

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
	for (size_t start = 0; start < n; start += piece) {
		size_t len = n - start < piece ? n - start : piece;
		for (size_t j = 0; j < len; j++) {
			out[1][start + j].value = x[start + len - 1 - j];
			out[1][start + j].bound = 0; /* moved, not computed: exact */
		}
	}
}

static void
launch(const void *fn, const struct check_case *c, void *const *b)
{
	((swap_shared_launch_t *)fn)((const float *)b[0], (float *)b[1], c->dims[0]);
}

static double
bytes(const struct check_case *c)
{
	return 8.0 * c->dims[0];
}

static double
flops(const struct check_case *c)
{
	return 0;
}

const struct check check_definition = { buffers, reference, launch, bytes, flops };
