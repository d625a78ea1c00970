/*
 * mutant_ops.c — the mutation operators (see mutant_ops.h).
 */
#include "grader/mutants/mutant_ops.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* ------------------------------------------------------------ drop_barrier */

void
mutant_ops_drop_barriers(struct maker *k)
{
	const struct lexed *L = k->L;
	for (int i = 0; i < L->n; i++) {
		bool threads = mutant_lex_is(L, i, "__syncthreads"), warp = mutant_lex_is(L, i, "__syncwarp");
		if ((!threads && !warp) || !mutant_lex_is(L, i + 1, "(") || L->t[i + 1].match < 0)
			continue;
		mutant_maker_edit_tokens(k, i, L->t[i + 1].match, xstrdup("(void)0"));
		mutant_maker_commit(k, MUTANT_DROP_BARRIER, xasprintf("%s() dropped", threads ? "__syncthreads" : "__syncwarp"));
	}
}

/* ------------------------------------------------------------ bound_guard */

static bool
relational(const struct lexed *L, int i)
{
	return L->t[i].kind == TOK_PUNCT && (mutant_lex_is(L, i, "<") || mutant_lex_is(L, i, "<=") ||
					     mutant_lex_is(L, i, ">") || mutant_lex_is(L, i, ">="));
}

/* `<` opening template arguments (static_cast<int>, template <int N>), and the `>` that closes them. */
static void
mark_template_brackets(const struct lexed *L, bool *skip)
{
	for (int i = 1; i < L->n; i++) {
		if (!mutant_lex_is(L, i, "<"))
			continue;
		const struct tok *p = &L->t[i - 1];
		bool cast = p->kind == TOK_IDENT && p->len > 5 && !strncmp(L->src + p->at + p->len - 5, "_cast", 5);
		if (!cast && !mutant_lex_is(L, i - 1, "template"))
			continue;
		skip[i] = true;
		for (int j = i + 1, depth = 0; j < L->n && !mutant_lex_is(L, j, ";"); j++) {
			depth += mutant_lex_is(L, j, "<") - mutant_lex_is(L, j, ">");
			if (depth < 0) {
				skip[j] = true;
				break;
			}
		}
	}
}

/*
 * `a > b ? a : b` and `if (a > b) a = b;` give the same at a == b whichever
 * of < and <= they ask: a min, a max or a clamp cannot be off by one.
 */
static bool
picks_an_operand(const struct lexed *L, int op, int lo, int hi)
{
	int a0 = lo, a1 = op - 1, b0 = op + 1, b1 = hi;
	if (mutant_lex_is(L, hi + 1, "?")) {
		int x0 = hi + 2, x1 = mutant_lex_operand_end(L, x0, L->n);
		if (!mutant_lex_is(L, x1 + 1, ":"))
			return false;
		int y0 = x1 + 2, y1 = mutant_lex_operand_end(L, y0, L->n);
		return (mutant_lex_same(L, x0, x1, a0, a1) && mutant_lex_same(L, y0, y1, b0, b1)) ||
		       (mutant_lex_same(L, x0, x1, b0, b1) && mutant_lex_same(L, y0, y1, a0, a1));
	}
	if (mutant_lex_is(L, lo - 2, "if") && mutant_lex_is(L, hi + 1, ")")) {
		int s = hi + 2 + mutant_lex_is(L, hi + 2, "{"), eq = s;
		while (eq < L->n && !mutant_lex_is(L, eq, "=") && !mutant_lex_is(L, eq, ";"))
			eq++;
		if (!mutant_lex_is(L, eq, "="))
			return false;
		int end = mutant_lex_operand_end(L, eq + 1, L->n);
		if (!mutant_lex_is(L, end + 1, ";"))
			return false;
		return (mutant_lex_same(L, s, eq - 1, a0, a1) && mutant_lex_same(L, eq + 1, end, b0, b1)) ||
		       (mutant_lex_same(L, s, eq - 1, b0, b1) && mutant_lex_same(L, eq + 1, end, a0, a1));
	}
	return false;
}

static void
guard(struct maker *k, int lo, int hi, bool *done, const bool *skip)
{
	const struct lexed *L = k->L;
	for (int i = lo; i <= hi; i++) {
		if (mutant_lex_is(L, i, "[") && L->t[i].match > i) {
			i = L->t[i].match; /* an index is no guard */
			continue;
		}
		if (done[i] || skip[i] || !relational(L, i))
			continue;
		done[i] = true;
		bool whole = mutant_lex_operand_start(L, i - 1, lo - 1) == lo && mutant_lex_operand_end(L, i + 1, hi + 1) == hi;
		if (whole && picks_an_operand(L, i, lo, hi))
			continue;
		const char *from = L->src + L->t[i].at;
		const char *to = mutant_lex_is(L, i, "<")    ? "<="
				 : mutant_lex_is(L, i, "<=") ? "<"
				 : mutant_lex_is(L, i, ">")  ? ">="
							     : ">";
		mutant_maker_edit_tokens(k, i, i, xstrdup(to));
		mutant_maker_commit(k, MUTANT_BOUND_GUARD, xasprintf("'%.*s' made '%s'", (int)L->t[i].len, from, to));
	}
}

void
mutant_ops_bound_guards(struct maker *k)
{
	const struct lexed *L = k->L;
	bool *done = xcalloc((size_t)L->n + 1, 1), *skip = xcalloc((size_t)L->n + 1, 1);
	mark_template_brackets(L, skip);
	for (int i = 0; i < L->n; i++) {
		if ((mutant_lex_is(L, i, "if") || mutant_lex_is(L, i, "while")) && mutant_lex_is(L, i + 1, "(") &&
		    L->t[i + 1].match > i + 1) {
			guard(k, i + 2, L->t[i + 1].match - 1, done, skip);
		} else if (mutant_lex_is(L, i, "for") && mutant_lex_is(L, i + 1, "(") && L->t[i + 1].match > i + 1) {
			int close = L->t[i + 1].match, semi[2], n = 0;
			for (int j = i + 2; j < close && n < 2; j++) {
				if ((mutant_lex_is(L, j, "(") || mutant_lex_is(L, j, "[")) && L->t[j].match > j)
					j = L->t[j].match;
				else if (mutant_lex_is(L, j, ";"))
					semi[n++] = j;
			}
			if (n == 2)
				guard(k, semi[0] + 1, semi[1] - 1, done, skip);
		} else if (mutant_lex_is(L, i, "?")) {
			guard(k, mutant_lex_condition_start(L, i - 1), i - 1, done, skip);
		}
	}
	free(done);
	free(skip);
}

/* ------------------------------------------------------------ swap_xy */

/* Identifier pairs that name the two axes of an index. */
static const char *const axis_pairs[][2] = {
	{ "x", "y" }, { "tx", "ty" }, { "bx", "by" }, { "ix", "iy" }, { "gx", "gy" }, { "row", "col" },
};
#define NPAIRS (int)(ARRAY_SIZE(axis_pairs))
#define MEMBERS NPAIRS /* the family of threadIdx.x / .y, blockIdx, blockDim, gridDim */

static bool
thread_index_object(const struct lexed *L, int i)
{
	return mutant_lex_is(L, i, "threadIdx") || mutant_lex_is(L, i, "blockIdx") || mutant_lex_is(L, i, "blockDim") ||
	       mutant_lex_is(L, i, "gridDim");
}

/* Which axis (0 x, 1 y) token i is of `family`, or -1. */
static int
axis_of(const struct lexed *L, int i, int family)
{
	if (family == MEMBERS) {
		if (!mutant_lex_is(L, i - 1, ".") || !thread_index_object(L, i - 2))
			return -1;
		return mutant_lex_is(L, i, "x") ? 0 : mutant_lex_is(L, i, "y") ? 1 : -1;
	}
	if (!mutant_lex_ident(L, i) || mutant_lex_is(L, i - 1, ".") || mutant_lex_is(L, i - 1, "->"))
		return -1;
	return mutant_lex_is(L, i, axis_pairs[family][0]) ? 0 : mutant_lex_is(L, i, axis_pairs[family][1]) ? 1 : -1;
}

static const char *
axis_name(int family, int axis)
{
	return family == MEMBERS ? (axis ? "y" : "x") : axis_pairs[family][axis];
}

/* Swap every token of `family` in lo..hi for the other axis's; false when lo..hi has not both. */
static bool
swap_axes(struct maker *k, int lo, int hi, int family)
{
	int seen[2] = { 0, 0 };
	for (int i = lo; i <= hi; i++) {
		int a = axis_of(k->L, i, family);
		if (a >= 0)
			seen[a]++;
	}
	if (!seen[0] || !seen[1])
		return false;
	for (int i = lo; i <= hi; i++) {
		int a = axis_of(k->L, i, family);
		if (a >= 0)
			mutant_maker_edit_tokens(k, i, i, xstrdup(axis_name(family, !a)));
	}
	return true;
}

/* Whether lo..hi holds a token of `family` on axis `axis`. */
static bool
has_axis(const struct lexed *L, int lo, int hi, int family, int axis)
{
	for (int i = lo; i <= hi; i++)
		if (axis_of(L, i, family) == axis)
			return true;
	return false;
}

void
mutant_ops_swap_xy(struct maker *k)
{
	const struct lexed *L = k->L;
	/* only code with two axes has them to swap: a 1D kernel's .y is 0 */
	bool two_d = false;
	for (int i = 0; i < L->n && !two_d; i++)
		two_d = axis_of(L, i, MEMBERS) == 1;
	for (int i = 0; i < L->n; i++) {
		if (mutant_lex_is(L, i, "[") && L->t[i].match > i) {
			int close = L->t[i].match;
			/* one subscript naming both axes: in[y * cols + x] */
			for (int f = 0; f <= MEMBERS; f++)
				if (swap_axes(k, i + 1, close - 1, f))
					mutant_maker_commit(k, MUTANT_SWAP_XY, xasprintf("%s and %s swapped in an index", axis_name(f, 0),
					       axis_name(f, 1)));
			/* two subscripts, one axis each: tile[threadIdx.y][threadIdx.x] */
			if (mutant_lex_is(L, close + 1, "[") && L->t[close + 1].match > close + 1 && !mutant_lex_is(L, i - 1, "]")) {
				int close2 = L->t[close + 1].match;
				for (int f = 0; f <= MEMBERS; f++)
					for (int a = 0; a < 2; a++)
						if (has_axis(L, i + 1, close - 1, f, a) && has_axis(L, close + 2, close2 - 1, f, !a) &&
						    !has_axis(L, i + 1, close - 1, f, !a)) {
							mutant_maker_edit_tokens(k, i + 1, close - 1, mutant_lex_span(L, close + 2, close2 - 1));
							mutant_maker_edit_tokens(k, close + 2, close2 - 1, mutant_lex_span(L, i + 1, close - 1));
							mutant_maker_commit(k, MUTANT_SWAP_XY, xstrdup("the two subscripts swapped"));
						}
			}
		}
		/* an index computed from the thread's coordinates: int col = blockIdx.x * blockDim.x + threadIdx.x */
		if (two_d && mutant_lex_is(L, i, "=") && mutant_lex_ident(L, i - 1) && !mutant_lex_is(L, i - 2, ".") &&
		    !mutant_lex_is(L, i - 2, "->")) {
			int end = mutant_lex_operand_end(L, i + 1, L->n);
			int seen = 0;
			for (int j = i + 1; j <= end; j++)
				seen |= axis_of(L, j, MEMBERS) >= 0;
			if (!seen || end <= i)
				continue;
			for (int j = i + 1; j <= end; j++) {
				int a = axis_of(L, j, MEMBERS);
				if (a >= 0)
					mutant_maker_edit_tokens(k, j, j, xstrdup(a ? "x" : "y"));
			}
			mutant_maker_commit(k, MUTANT_SWAP_XY,
					    xasprintf(".x and .y swapped in %.*s", (int)L->t[i - 1].len, L->src + L->t[i - 1].at));
		}
	}
}

/* ------------------------------------------------------------ __shared__ arrays */

struct shared_array {
	int name;       /* its token */
	int dims[8][2]; /* each size's first and last token */
	int ndims;
};

static int
shared_arrays(const struct lexed *L, struct shared_array *out, int max)
{
	int n = 0;
	for (int i = 0; i < L->n && n < max; i++) {
		if (!mutant_lex_is(L, i, "__shared__"))
			continue;
		int j = i + 1;
		while (j < L->n && !mutant_lex_is(L, j, ";") && !(mutant_lex_ident(L, j) && mutant_lex_is(L, j + 1, "[")))
			j++;
		if (!mutant_lex_is(L, j + 1, "["))
			continue;
		struct shared_array a = { .name = j };
		for (int b = j + 1; mutant_lex_is(L, b, "[") && L->t[b].match > b && a.ndims < 8; b = L->t[b].match + 1) {
			a.dims[a.ndims][0] = b + 1;
			a.dims[a.ndims++][1] = L->t[b].match - 1;
		}
		out[n++] = a;
	}
	return n;
}

/* ------------------------------------------------------------ drop_halo */

/* The ';' ending the store into shared array `name` at token i (NAME[..]... = ...;), or -1 when it is none. */
static int
store_end(const struct lexed *L, int i)
{
	if (!mutant_lex_statement_boundary(L, i - 1) || !mutant_lex_is(L, i + 1, "["))
		return -1;
	int j = i + 1;
	while (mutant_lex_is(L, j, "[") && L->t[j].match > j)
		j = L->t[j].match + 1;
	if (!mutant_lex_is(L, j, "="))
		return -1;
	for (j++; j < L->n && !mutant_lex_is(L, j, ";"); j++)
		if ((mutant_lex_is(L, j, "(") || mutant_lex_is(L, j, "[") || mutant_lex_is(L, j, "{")) && L->t[j].match > j)
			j = L->t[j].match;
		else if (mutant_lex_is(L, j, ")") || mutant_lex_is(L, j, "]") || mutant_lex_is(L, j, "}"))
			return -1;
	return j < L->n ? j : -1;
}

/* The '}' closing the braces around token i, or the end of the file at file scope. */
static int
scope_end(const struct lexed *L, int i)
{
	for (int j = i, depth = 0; j >= 0; j--) {
		if (mutant_lex_is(L, j, "}"))
			depth++;
		else if (mutant_lex_is(L, j, "{") && depth-- == 0)
			return L->t[j].match >= 0 ? L->t[j].match : L->n;
	}
	return L->n;
}

void
mutant_ops_drop_halos(struct maker *k)
{
	const struct lexed *L = k->L;
	struct shared_array arrays[64];
	int narrays = shared_arrays(L, arrays, 64);
	for (int a = 0; a < narrays; a++) {
		int stores[64], n = 0, end = scope_end(L, arrays[a].name);
		for (int i = arrays[a].name + 1; i < end && n < 64; i++)
			if (mutant_lex_same(L, i, i, arrays[a].name, arrays[a].name) && store_end(L, i) > 0)
				stores[n++] = i;
		/* one store fills the array; a second (a halo, an edge's zero) is the one a kernel forgets */
		if (n < 2)
			continue;
		for (int s = 0; s < n; s++) {
			mutant_maker_edit_tokens(k, stores[s], store_end(L, stores[s]), xstrdup(";"));
			mutant_maker_commit(k, MUTANT_DROP_HALO, xasprintf("a store into %.*s dropped", (int)L->t[stores[s]].len,
			       L->src + L->t[stores[s]].at));
		}
	}
}

/* ------------------------------------------------------------ drop_padding */

static bool
power_of_two(long v)
{
	return v > 0 && !(v & (v - 1));
}

void
mutant_ops_drop_padding(struct maker *k)
{
	const struct lexed *L = k->L;
	struct shared_array arrays[64];
	int narrays = shared_arrays(L, arrays, 64);
	for (int a = 0; a < narrays; a++) {
		if (arrays[a].ndims < 2)
			continue; /* a 1D array's extra elements are a halo, not padding */
		int lo = arrays[a].dims[arrays[a].ndims - 1][0], hi = arrays[a].dims[arrays[a].ndims - 1][1];
		const struct tok *last = &L->t[hi];
		if (hi - lo >= 2 && mutant_lex_is(L, hi - 1, "+") && (last->kind == TOK_NUMBER || last->kind == TOK_IDENT)) {
			/* [TILE][TILE + 1] → [TILE][TILE] */
			size_t from = L->t[hi - 2].at + L->t[hi - 2].len;
			mutant_maker_edit(k, from, last->at + last->len - from, xstrdup(""));
		} else if (hi == lo && last->kind == TOK_NUMBER) {
			/* [32][33] → [32][32] */
			long v = strtol(L->src + last->at, NULL, 0);
			if (v >= 5 && power_of_two(v - 1))
				mutant_maker_edit_tokens(k, hi, hi, xasprintf("%ld", v - 1));
		}
		const struct tok *name = &L->t[arrays[a].name];
		mutant_maker_commit(k, MUTANT_DROP_PADDING,
				    xasprintf("the padding of %.*s removed", (int)name->len, L->src + name->at));
	}
}

/* ------------------------------------------------------------ drop_partial_tile */

/* The last token of the divisor after a '/' at token i: a name (with .members), a number or a (group). */
static int
divisor_end(const struct lexed *L, int i)
{
	int j = i + 1;
	if (mutant_lex_is(L, j, "(") && L->t[j].match > j)
		return L->t[j].match;
	if (L->t[j].kind == TOK_NUMBER)
		return j;
	if (!mutant_lex_ident(L, j))
		return -1;
	while ((mutant_lex_is(L, j + 1, ".") || mutant_lex_is(L, j + 1, "->")) && mutant_lex_ident(L, j + 2))
		j += 2;
	return j;
}

void
mutant_ops_drop_partial_tiles(struct maker *k)
{
	const struct lexed *L = k->L;
	for (int close = 0; close < L->n; close++) {
		if (!mutant_lex_is(L, close, ")") || !mutant_lex_is(L, close + 1, "/") || L->t[close].match < 0)
			continue;
		int open = L->t[close].match, d0 = close + 2, d1 = divisor_end(L, close + 1);
		if (d1 < 0 || close - open < 4)
			continue;
		/* (A + T - 1) / T: the top-level '+' last before "- 1" */
		if (mutant_lex_is(L, close - 2, "-") && mutant_lex_is(L, close - 1, "1")) {
			int plus = -1;
			for (int j = open + 1; j < close - 2; j++) {
				if ((mutant_lex_is(L, j, "(") || mutant_lex_is(L, j, "[")) && L->t[j].match > j)
					j = L->t[j].match;
				else if (mutant_lex_is(L, j, "+"))
					plus = j;
			}
			if (plus > open + 1 && mutant_lex_same(L, plus + 1, close - 3, d0, d1)) {
				char *a = mutant_lex_span(L, open + 1, plus - 1);
				mutant_maker_edit_tokens(k, open, close, plus - 1 == open + 1 ? a : xasprintf("(%s)", a));
				if (plus - 1 != open + 1)
					free(a);
				mutant_maker_commit(k, MUTANT_DROP_PARTIAL_TILE, xstrdup("the last partial tile dropped (rounds down)"));
				continue;
			}
		}
		/* (A + 255) / 256 */
		if (mutant_lex_is(L, close - 2, "+") && L->t[close - 1].kind == TOK_NUMBER && d0 == d1 &&
		    L->t[d0].kind == TOK_NUMBER) {
			long add = strtol(L->src + L->t[close - 1].at, NULL, 0), by = strtol(L->src + L->t[d0].at, NULL, 0);
			if (by > 1 && add == by - 1) {
				char *a = mutant_lex_span(L, open + 1, close - 3);
				mutant_maker_edit_tokens(k, open, close, close - 3 == open + 1 ? a : xasprintf("(%s)", a));
				if (close - 3 != open + 1)
					free(a);
				mutant_maker_commit(k, MUTANT_DROP_PARTIAL_TILE, xstrdup("the last partial tile dropped (rounds down)"));
				continue;
			}
		}
		/* (A - 1) / T + 1 */
		if (mutant_lex_is(L, close - 2, "-") && mutant_lex_is(L, close - 1, "1") &&
		    mutant_lex_is(L, d1 + 1, "+") && mutant_lex_is(L, d1 + 2, "1")) {
			char *a = mutant_lex_span(L, open + 1, close - 3), *t = mutant_lex_span(L, d0, d1);
			mutant_maker_edit_tokens(k, open, d1 + 2, xasprintf(close - 3 == open + 1 ? "%s / %s" : "(%s) / %s", a, t));
			free(a);
			free(t);
			mutant_maker_commit(k, MUTANT_DROP_PARTIAL_TILE, xstrdup("the last partial tile dropped (rounds down)"));
		}
	}
}

/* ------------------------------------------------------------ plain_store */

void
mutant_ops_plain_stores(struct maker *k)
{
	static const struct { const char *name, *assign; } atomics[] = {
		{ "atomicAdd", "+=" }, { "atomicSub", "-=" }, { "atomicOr", "|=" }, { "atomicAnd", "&=" },
		{ "atomicXor", "^=" }, { "atomicExch", "=" },  { "atomicMax", "max" }, { "atomicMin", "min" },
	};
	const struct lexed *L = k->L;
	for (int i = 0; i < L->n; i++) {
		/* (void)atomicAdd(p, v); goes whole: a cast of a store is no statement */
		int first =
			mutant_lex_is(L, i - 1, ")") && mutant_lex_is(L, i - 2, "void") && mutant_lex_is(L, i - 3, "(")
				? i - 3
				: i;
		if (!mutant_lex_ident(L, i) || !mutant_lex_is(L, i + 1, "(") || !mutant_lex_statement_boundary(L, first - 1))
			continue;
		int close = L->t[i + 1].match;
		if (close < 0 || !mutant_lex_is(L, close + 1, ";"))
			continue; /* its old value is used: no plain store gives that */
		const char *assign = NULL;
		size_t len = L->t[i].len;
		for (size_t a = 0; a < ARRAY_SIZE(atomics); a++) {
			size_t n = strlen(atomics[a].name);
			const char *name = L->src + L->t[i].at;
			if (len >= n && !strncmp(name, atomics[a].name, n) &&
			    (len == n || !strncmp(name + n, "_block", len - n) || !strncmp(name + n, "_system", len - n)))
				assign = atomics[a].assign;
		}
		if (!assign)
			continue;
		int comma = -1;
		for (int j = i + 2; j < close; j++) {
			if ((mutant_lex_is(L, j, "(") || mutant_lex_is(L, j, "[")) && L->t[j].match > j)
				j = L->t[j].match;
			else if (mutant_lex_is(L, j, ",")) {
				comma = j;
				break;
			}
		}
		if (comma < 0 || comma == i + 2 || comma + 1 >= close)
			continue;
		char *pointer = mutant_lex_span(L, i + 2 + mutant_lex_is(L, i + 2, "&"), comma - 1);
		char *target = mutant_lex_is(L, i + 2, "&") ? xstrdup(pointer)
			       : comma - 1 == i + 2 ? xasprintf("*%s", pointer) : xasprintf("*(%s)", pointer);
		free(pointer);
		char *value = mutant_lex_span(L, comma + 1, close - 1);
		char *with = assign[0] == 'm' ? xasprintf("%s = %s(%s, %s)", target, assign, target, value)
					      : xasprintf("%s %s %s", target, assign, value);
		mutant_maker_edit_tokens(k, first, close, with);
		mutant_maker_commit(k, MUTANT_PLAIN_STORE, xasprintf("%.*s made a plain store", (int)len, L->src + L->t[i].at));
		free(target);
		free(value);
	}
}
