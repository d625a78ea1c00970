#include "check.h"

#include <stdio.h>
#include <stdlib.h>

void
check_buffer(struct check_case *c, const char *name, enum buffer_role role,
	     size_t rows, size_t cols)
{
	if (c->nbuffers >= PROTO_MAX_BUFFERS) {
		fprintf(stderr, "check: more than %d buffers\n", PROTO_MAX_BUFFERS);
		abort();
	}
	struct buffer_spec *b = &c->spec[c->nbuffers++];
	b->name = name;
	b->role = role;
	b->rows = rows;
	b->cols = cols;
}
