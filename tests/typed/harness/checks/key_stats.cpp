/* key_stats: dims are n; n keys (int32, 0..KEYS-1) and n weights (float64) in; per key the sum of its
   weights (float64, within rounding) and how many there are (int32, exactly). */
#include "harness/check.h"
#include "cudalings/key_stats.h"

#include <math.h>
#include <string.h>

enum { KEYS = 64 };

static void
buffers(struct check_case *c)
{
	check_range(check_buffer_typed(c, "keys", BUFFER_IN, DTYPE_INT32, 1, c->dims[0]), 0, KEYS - 1);
	check_range(check_buffer_typed(c, "weights", BUFFER_IN, DTYPE_FLOAT64, 1, c->dims[0]), -100, 100);
	check_buffer_typed(c, "totals", BUFFER_OUT, DTYPE_FLOAT64, 1, KEYS);
	check_buffer_typed(c, "counts", BUFFER_OUT, DTYPE_INT32, 1, KEYS);
}

static void
reference(const struct check_case *c, const void *const *in, struct proto_expect *const *out)
{
	const int *keys = (const int *)in[0];
	const double *weights = (const double *)in[1];
	size_t n = c->dims[0];
	double total[KEYS], magnitude[KEYS], count[KEYS];
	memset(total, 0, sizeof(total));
	memset(magnitude, 0, sizeof(magnitude));
	memset(count, 0, sizeof(count));
	for (size_t i = 0; i < n; i++) {
		total[keys[i]] += weights[i];
		magnitude[keys[i]] += fabs(weights[i]);
		count[keys[i]]++;
	}
	for (int k = 0; k < KEYS; k++) {
		out[2][k].value = total[k];
		out[2][k].bound = magnitude[k]; /* a sum in any order: its rounding grows with Σ|w| */
		out[3][k].value = count[k];
	}
}

static void
launch(const void *fn, const struct check_case *c, void *const *b)
{
	((key_stats_launch_t *)fn)((const int *)b[0], (const double *)b[1], (double *)b[2], (int *)b[3], c->dims[0]);
}

static double
bytes(const struct check_case *c)
{
	return check_bytes_moved(c);
}

static double
flops(const struct check_case *c)
{
	return (double)c->dims[0];
}

const struct check check_definition = { buffers, reference, launch, bytes, flops };
