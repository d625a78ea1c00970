/* Declaring a case's buffers: their shape, type and the range inputs are drawn from. */
#include "harness/check.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

struct buffer_spec *
check_buffer_typed(struct check_case *c, const char *name, enum buffer_role role, enum dtype type,
		   size_t rows, size_t cols)
{
	if (c->nbuffers >= PROTO_MAX_BUFFERS) {
		fprintf(stderr, "check: more than %d buffers\n", PROTO_MAX_BUFFERS);
		abort();
	}
	if ((unsigned)type >= DTYPE_COUNT) {
		fprintf(stderr, "check: buffer '%s' has no type %d\n", name, (int)type);
		abort();
	}
	struct buffer_spec *b = &c->spec[c->nbuffers++];
	b->name = name;
	b->role = role;
	b->type = type;
	b->rows = rows;
	b->cols = cols;
	b->lo = dtype_min(type);
	b->hi = dtype_max(type);
	return b;
}

struct buffer_spec *
check_buffer(struct check_case *c, const char *name, enum buffer_role role, size_t rows, size_t cols)
{
	return check_buffer_typed(c, name, role, DTYPE_FLOAT32, rows, cols);
}

void
check_range(struct buffer_spec *b, double lo, double hi)
{
	bool whole = dtype_is_float(b->type) || (lo == (double)(long long)lo && hi == (double)(long long)hi);
	bool inside = dtype_is_float(b->type) ? hi - lo < 1e300 && lo > -1e300
					      : lo >= dtype_min(b->type) && hi <= dtype_max(b->type);
	if (!(lo <= hi) || !whole || !inside) {
		fprintf(stderr, "check: buffer '%s': the range %g..%g is not %s values of %s\n", b->name, lo, hi,
			dtype_is_float(b->type) ? "finite" : "whole", dtype_name(b->type));
		abort();
	}
	b->lo = lo;
	b->hi = hi;
}

double
check_bytes_moved(const struct check_case *c)
{
	double bytes = 0;
	for (int k = 0; k < c->nbuffers; k++)
		bytes += (double)check_bytes(&c->spec[k]);
	return bytes;
}
