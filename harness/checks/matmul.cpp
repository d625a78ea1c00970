/* matmul: dims are m, k, n; A is m × k, B is k × n, C is m × n. */
#include "harness/check.h"
#include "cudalings/matmul.h"

#include <vector>

static void
buffers(struct check_case *c)
{
	check_buffer(c, "a", BUFFER_IN, c->dims[0], c->dims[1]);
	check_buffer(c, "b", BUFFER_IN, c->dims[1], c->dims[2]);
	check_buffer(c, "c", BUFFER_OUT, c->dims[0], c->dims[2]);
}

static void
reference(const struct check_case *c, const void *const *in, struct proto_expect *const *out)
{
	size_t m = c->dims[0], k = c->dims[1], n = c->dims[2];
	const float *a = (const float *)in[0], *b = (const float *)in[1];
	struct proto_expect *cc = out[2];
	/* row by row, streaming B's rows, so the inner loop is contiguous */
	#pragma omp parallel for schedule(dynamic, 4)
	for (size_t i = 0; i < m; i++) {
		/* the timed case is judged on a sample: a tenth of its rows */
		if (!check_row_judged(c, 2, i))
			continue;
		std::vector<double> sum_row(n), mag_row(n);
		/* distinct arrays, said so: the compiler then vectorizes the inner loop (the judge's reference of
		   matmul's timed case is on the path to the verdict) */
		double *__restrict sum = sum_row.data(), *__restrict mag = mag_row.data();
		for (size_t p = 0; p < k; p++) {
			double av = a[i * k + p];
			const float *__restrict brow = b + p * n;
			#pragma omp simd
			for (size_t j = 0; j < n; j++) {
				double t = av * brow[j];
				sum[j] += t;
				mag[j] += fabs(t);
			}
		}
		for (size_t j = 0; j < n; j++) {
			cc[i * n + j].value = sum[j];
			cc[i * n + j].bound = mag[j];
		}
	}
}

static void
launch(const void *fn, const struct check_case *c, void *const *b)
{
	((matmul_launch_t *)fn)((const float *)b[0], (const float *)b[1], (float *)b[2],
				c->dims[0], c->dims[1], c->dims[2]);
}

static double
bytes(const struct check_case *c)
{
	double m = c->dims[0], k = c->dims[1], n = c->dims[2];
	return 4.0 * (m * k + k * n + m * n);
}

static double
flops(const struct check_case *c)
{
	return 2.0 * c->dims[0] * c->dims[1] * c->dims[2];
}

const struct check check_definition = { buffers, reference, launch, bytes, flops };
