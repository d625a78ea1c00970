/* histogram: dims are n; n bytes in (every value 0..255), 256 bins out, counted exactly. */
#include "harness/check.h"
#include "cudalings/histogram.h"

#include <string.h>

enum { BINS = 256 };

static void
buffers(struct check_case *c)
{
	check_buffer_typed(c, "pixels", BUFFER_IN, DTYPE_UINT8, 1, c->dims[0]);
	check_buffer_typed(c, "bins", BUFFER_OUT, DTYPE_UINT32, 1, BINS);
}

static void
reference(const struct check_case *c, const void *const *in, struct proto_expect *const *out)
{
	const unsigned char *pixels = (const unsigned char *)in[0];
	size_t n = c->dims[0];
	double count[BINS];
	memset(count, 0, sizeof(count));
	for (size_t i = 0; i < n; i++)
		count[pixels[i]]++;
	for (int b = 0; b < BINS; b++)
		out[1][b].value = count[b];
}

static void
launch(const void *fn, const struct check_case *c, void *const *b)
{
	((histogram_launch_t *)fn)((const unsigned char *)b[0], (unsigned int *)b[1], c->dims[0]);
}

static double
bytes(const struct check_case *c)
{
	return check_bytes_moved(c);
}

static double
flops(const struct check_case *c)
{
	return 0;
}

const struct check check_definition = { buffers, reference, launch, bytes, flops };
