/*
 * mutants.c — wrong kernels from a right one, by rewriting its source.
 *
 * The source is split into tokens (mutant_lex); each operator (mutant_ops)
 * finds the places it applies to by the shape of the tokens around them and
 * makes one mutant per place (mutant_maker): a copy of the source with a few
 * bytes replaced. No compiler is asked: a rewrite that does not compile is
 * the grader's to report. Here: the whole set, ids and their names.
 */
#include "grader/mutants/mutants.h"
#include "grader/mutants/mutant_ops.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

static const char *const op_names[MUTANT_OPS] = {
	"drop_barrier", "bound_guard", "swap_xy", "drop_halo", "drop_padding", "drop_partial_tile", "plain_store",
};

const char *
mutants_op_name(enum mutant_op op)
{
	return op < MUTANT_OPS ? op_names[op] : "unknown";
}

/* ------------------------------------------------------------ the whole set */

static int
by_place(const void *a, const void *b)
{
	const struct mutant *x = a, *y = b;
	return x->line != y->line ? (x->line > y->line) - (x->line < y->line) : (x->op > y->op) - (x->op < y->op);
}

int
mutants_make(const char *source, const char *path, struct mutant **out)
{
	struct lexed L;
	mutant_lex(source, &L);
	struct maker k = { .L = &L, .path = path };
	mutant_ops_drop_barriers(&k);
	mutant_ops_bound_guards(&k);
	mutant_ops_swap_xy(&k);
	mutant_ops_drop_halos(&k);
	mutant_ops_drop_padding(&k);
	mutant_ops_drop_partial_tiles(&k);
	mutant_ops_plain_stores(&k);
	/* stable ids: by line, then (for two of one operator on one line) in the order made */
	if (k.n)
		qsort(k.m, (size_t)k.n, sizeof(*k.m), by_place);
	for (int i = 0; i < k.n; i++) {
		int same = 0, before = 0;
		for (int j = 0; j < k.n; j++)
			if (k.m[j].op == k.m[i].op && k.m[j].line == k.m[i].line) {
				same++;
				before += j < i;
			}
		k.m[i].id = same > 1 ? xasprintf("%s@%d#%d", op_names[k.m[i].op], k.m[i].line, before + 1)
				     : xasprintf("%s@%d", op_names[k.m[i].op], k.m[i].line);
		k.m[i].diff = mutant_maker_unified_diff(source, k.m[i].text, path, k.m[i].id);
	}
	free(L.t);
	*out = k.m;
	return k.n;
}

void
mutants_free(struct mutant *m, int count)
{
	for (int i = 0; i < count; i++) {
		free(m[i].id);
		free(m[i].what);
		free(m[i].text);
		free(m[i].diff);
	}
	free(m);
}

bool
mutants_id_valid(const char *id, const char **why, const char **near)
{
	*why = NULL;
	*near = NULL;
	const char *at = strchr(id, '@');
	if (!at) {
		*why = "names no line: it is OPERATOR@LINE, as check --mutants prints it";
		return false;
	}
	int best = 4;
	bool known = false;
	for (int op = 0; op < MUTANT_OPS; op++) {
		char *name = xasprintf("%.*s", (int)(at - id), id);
		int d = edit_distance(name, op_names[op]);
		free(name);
		known |= d == 0;
		if (d && d < best) {
			best = d;
			*near = op_names[op];
		}
	}
	if (!known) {
		*why = "names no operator";
		return false;
	}
	*near = NULL;
	const char *p = at + 1;
	if (!isdigit((unsigned char)*p) || *p == '0') {
		*why = "needs a line number after '@'";
		return false;
	}
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '#') {
		p++;
		if (!isdigit((unsigned char)*p) || *p == '0') {
			*why = "needs a number after '#'";
			return false;
		}
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p) {
		*why = "has something after the line";
		return false;
	}
	return true;
}

