/*
 * Mutants: wrong kernels made from a right one by rewriting its source,
 * one small mistake each (a barrier dropped, a bound guard off by one, x
 * and y swapped in an index, a halo load dropped, the padding removed, the
 * last partial tile dropped, an atomic made a plain store). An exercise
 * whose checks let a mutant pass has a weak check: a student will find it.
 * Here only the rewriting; grading them is `cudalings check --mutants`.
 */
#ifndef CUDALINGS_MUTANTS_H
#define CUDALINGS_MUTANTS_H

#include <stdbool.h>
#include <stddef.h>

enum mutant_op {
	MUTANT_DROP_BARRIER,      /* __syncthreads() or __syncwarp() made (void)0 */
	MUTANT_BOUND_GUARD,       /* < and <=, > and >= traded in a condition */
	MUTANT_SWAP_XY,           /* x and y (.x and .y, row and col, …) swapped in an index */
	MUTANT_DROP_HALO,         /* one of several stores into a __shared__ array dropped */
	MUTANT_DROP_PADDING,      /* a 2D __shared__ array's last size made TILE, from TILE + 1 */
	MUTANT_DROP_PARTIAL_TILE, /* (n + T - 1) / T made n / T */
	MUTANT_PLAIN_STORE,       /* atomicAdd(p, v) made *p += v */
	MUTANT_OPS
};

struct mutant {
	enum mutant_op op;
	char *id;   /* "drop_barrier@31", or "bound_guard@24#2" for the second on its line: what workbook.json names */
	int line;   /* where, in the original */
	char *what; /* "'<' made '<='", for the report */
	char *text; /* the whole mutated source */
	char *diff; /* a unified diff from the original */
};

/*
 * Every mutant of `source` (named `path` in the diffs), in the order of
 * where each is; duplicates (two rewrites giving one text) once. Returns
 * how many; *out gets them, yours to release with mutants_free.
 */
int mutants_make(const char *source, const char *path, struct mutant **out);
void mutants_free(struct mutant *m, int count);

/* "drop_barrier", …: the names ids begin with. */
const char *mutants_op_name(enum mutant_op op);
/*
 * Whether `id` is shaped as a mutant's ("OP@LINE" or "OP@LINE#K", OP one of
 * the names above); when not, *why says what is wrong with it and *near
 * names the operator it may have meant (NULL when none is close).
 */
bool mutants_id_valid(const char *id, const char **why, const char **near);

#endif
