/* col_sums: dims are rows, cols. */
#include "harness/check.h"
#include "cudalings/col_sums.h"

#include <vector>

static void
buffers(struct check_case *c)
{
	check_buffer(c, "a", BUFFER_IN, c->dims[0], c->dims[1]);
	check_buffer(c, "sums", BUFFER_OUT, 1, c->dims[1]);
}

static void
reference(const struct check_case *c, const void *const *in, struct proto_expect *const *out)
{
	size_t rows = c->dims[0], cols = c->dims[1];
	const float *a = (const float *)in[0];
	struct proto_expect *sums = out[1];
	/* columns in slabs so that each thread streams whole rows of its slab */
	const size_t slab = 1024;
	#pragma omp parallel for schedule(dynamic)
	for (size_t first = 0; first < cols; first += slab) {
		size_t last = first + slab < cols ? first + slab : cols;
		std::vector<double> sum(last - first), mag(last - first);
		for (size_t r = 0; r < rows; r++)
			for (size_t j = first; j < last; j++) {
				double v = a[r * cols + j];
				sum[j - first] += v;
				mag[j - first] += fabs(v);
			}
		for (size_t j = first; j < last; j++) {
			sums[j].value = sum[j - first];
			sums[j].bound = mag[j - first];
		}
	}
}

static void
launch(const void *fn, const struct check_case *c, void *const *b)
{
	((col_sums_launch_t *)fn)((const float *)b[0], (float *)b[1], c->dims[0], c->dims[1]);
}

static double
bytes(const struct check_case *c)
{
	return 4.0 * c->dims[0] * c->dims[1] + 4.0 * c->dims[1];
}

static double
flops(const struct check_case *c)
{
	return (double)c->dims[0] * c->dims[1];
}

const struct check check_definition = { buffers, reference, launch, bytes, flops };
