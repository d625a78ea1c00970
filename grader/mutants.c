/*
 * mutants.c — wrong kernels from a right one, by rewriting its source.
 *
 * The source is split into tokens (comments, strings and preprocessor lines
 * kept whole and never rewritten); each operator finds the places it
 * applies to by the shape of the tokens around them and makes one mutant
 * per place: a copy of the source with a few bytes replaced. No compiler is
 * asked: a rewrite that does not compile is the grader's to report.
 */
#include "mutants.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

static const char *const op_names[MUTANT_OPS] = {
	"drop_barrier", "bound_guard", "swap_xy", "drop_halo", "drop_padding", "drop_partial_tile", "plain_store",
};

const char *
mutant_op_name(enum mutant_op op)
{
	return op < MUTANT_OPS ? op_names[op] : "unknown";
}

/* ------------------------------------------------------------ tokens */

enum tok_kind { TOK_IDENT, TOK_NUMBER, TOK_STRING, TOK_PUNCT };

struct tok {
	enum tok_kind kind;
	size_t at, len;
	int line;
	int match; /* the other bracket of ( [ { ) ] }, or -1 */
};

struct lexed {
	const char *src;
	struct tok *t;
	int n;
};

static const char *const puncts[] = {
	"<<<", ">>>", "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::", NULL,
};

/* Past a comment, a string or a character literal starting at p, or p when none starts there. */
static const char *
skip_literal(const char *p, int *line)
{
	if (p[0] == '/' && p[1] == '/') {
		while (*p && *p != '\n')
			p++;
		return p;
	}
	if (p[0] == '/' && p[1] == '*') {
		const char *end = strstr(p + 2, "*/");
		end = end ? end + 2 : p + strlen(p);
		for (; p < end; p++)
			*line += *p == '\n';
		return end;
	}
	return p;
}

static void
lex(const char *src, struct lexed *L)
{
	size_t cap = 256;
	L->src = src;
	L->t = xmalloc(cap * sizeof(*L->t));
	L->n = 0;
	int line = 1;
	bool line_start = true;
	int stack[512], depth = 0;
	for (const char *p = src; *p;) {
		const char *q = skip_literal(p, &line);
		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '\n') {
			line++;
			line_start = true;
			p++;
			continue;
		}
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (*p == '#' && line_start) {
			/* a preprocessor line, continuations included: never rewritten */
			while (*p && *p != '\n') {
				if (p[0] == '\\' && p[1] == '\n') {
					line++;
					p++;
				}
				p++;
			}
			continue;
		}
		line_start = false;
		struct tok t = { TOK_PUNCT, (size_t)(p - src), 1, line, -1 };
		if (*p == '"' || *p == '\'') {
			char quote = *p++;
			while (*p && *p != quote && *p != '\n')
				p += p[0] == '\\' && p[1] ? 2 : 1;
			if (*p == quote)
				p++;
			t.kind = TOK_STRING;
			t.len = (size_t)(p - src) - t.at;
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			t.kind = TOK_IDENT;
			t.len = (size_t)(p - src) - t.at;
		} else if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
			for (p++; isalnum((unsigned char)*p) || *p == '.' || *p == '_' ||
				  ((*p == '+' || *p == '-') && strchr("eEpP", p[-1]));
			     p++)
				;
			t.kind = TOK_NUMBER;
			t.len = (size_t)(p - src) - t.at;
		} else {
			for (const char *const *s = puncts; *s; s++)
				if (!strncmp(p, *s, strlen(*s))) {
					t.len = strlen(*s);
					break;
				}
			p += t.len;
		}
		if (L->n == (int)cap) {
			cap *= 2;
			L->t = xrealloc(L->t, cap * sizeof(*L->t));
		}
		int i = L->n++;
		L->t[i] = t;
		if (t.kind != TOK_PUNCT || t.len != 1)
			continue;
		char c = src[t.at];
		if ((c == '(' || c == '[' || c == '{') && depth < (int)(sizeof(stack) / sizeof(*stack))) {
			stack[depth++] = i;
		} else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
			int open = stack[--depth];
			L->t[open].match = i;
			L->t[i].match = open;
		}
	}
}

static bool
is(const struct lexed *L, int i, const char *text)
{
	return i >= 0 && i < L->n && L->t[i].len == strlen(text) && !strncmp(L->src + L->t[i].at, text, L->t[i].len);
}

static bool
is_ident(const struct lexed *L, int i)
{
	return i >= 0 && i < L->n && L->t[i].kind == TOK_IDENT;
}

/* The source's own text from token first to token last, as written. */
static char *
span(const struct lexed *L, int first, int last)
{
	size_t from = L->t[first].at, to = L->t[last].at + L->t[last].len;
	return xasprintf("%.*s", (int)(to - from), L->src + from);
}

static bool
same_tokens(const struct lexed *L, int a0, int a1, int b0, int b1)
{
	if (a1 - a0 != b1 - b0 || a0 > a1)
		return false;
	for (int k = 0; k <= a1 - a0; k++)
		if (L->t[a0 + k].len != L->t[b0 + k].len ||
		    strncmp(L->src + L->t[a0 + k].at, L->src + L->t[b0 + k].at, L->t[a0 + k].len))
			return false;
	return true;
}

/* ------------------------------------------------------------ building mutants */

#define EDITS_MAX 32

struct edit {
	size_t at, len;
	char *with;
};

struct maker {
	const struct lexed *L;
	const char *path;
	struct mutant *m;
	int n, cap;
	struct edit edits[EDITS_MAX];
	int nedits;
};

static void
edit(struct maker *k, size_t at, size_t len, char *with)
{
	if (k->nedits == EDITS_MAX) {
		free(with);
		return;
	}
	k->edits[k->nedits++] = (struct edit){ at, len, with };
}

/* Replace tokens first..last with `with` (owned). */
static void
edit_tokens(struct maker *k, int first, int last, char *with)
{
	const struct tok *a = &k->L->t[first], *b = &k->L->t[last];
	edit(k, a->at, b->at + b->len - a->at, with);
}

static int
compare_edits(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* The lines of text, without their newlines; *n gets how many. The array and the copy are yours. */
static char **
split_lines(const char *text, int *n)
{
	char *copy = xstrdup(text);
	int cap = 64;
	char **lines = xmalloc((size_t)cap * sizeof(*lines));
	*n = 0;
	for (char *p = copy; *p;) {
		if (*n == cap) {
			cap *= 2;
			lines = xrealloc(lines, (size_t)cap * sizeof(*lines));
		}
		lines[(*n)++] = p;
		char *end = strchr(p, '\n');
		if (!end)
			break;
		*end = 0;
		p = end + 1;
	}
	if (!*n)
		free(copy);
	return lines;
}

/* A unified diff of the lines that differ, with one line of context on each side. */
static char *
unified_diff(const char *from, const char *to, const char *path, const char *id)
{
	int na, nb;
	char **a = split_lines(from, &na), **b = split_lines(to, &nb);
	int top = 0, bottom = 0;
	while (top < na && top < nb && !strcmp(a[top], b[top]))
		top++;
	while (bottom < na - top && bottom < nb - top && !strcmp(a[na - 1 - bottom], b[nb - 1 - bottom]))
		bottom++;
	int c0 = top > 0 ? top - 1 : 0, a_end = na - bottom + (bottom > 0), b_end = nb - bottom + (bottom > 0);
	struct buf d = { 0 };
	buf_addf(&d, "--- %s\n+++ %s (mutant %s)\n@@ -%d,%d +%d,%d @@\n", path, path, id, c0 + 1, a_end - c0, c0 + 1,
		 b_end - c0);
	for (int i = c0; i < top; i++)
		buf_addf(&d, " %s\n", a[i]);
	for (int i = top; i < na - bottom; i++)
		buf_addf(&d, "-%s\n", a[i]);
	for (int i = top; i < nb - bottom; i++)
		buf_addf(&d, "+%s\n", b[i]);
	for (int i = na - bottom; i < a_end; i++)
		buf_addf(&d, " %s\n", a[i]);
	if (na)
		free(a[0]);
	if (nb)
		free(b[0]);
	free(a);
	free(b);
	return buf_detach(&d);
}

/* The pending edits become a mutant described by `what` (owned), unless one with the same text exists. */
static void
commit(struct maker *k, enum mutant_op op, char *what)
{
	if (!k->nedits) {
		free(what);
		return;
	}
	qsort(k->edits, (size_t)k->nedits, sizeof(*k->edits), compare_edits);
	struct buf text = { 0 };
	size_t at = 0;
	bool overlap = false;
	for (int i = 0; i < k->nedits; i++) {
		if (k->edits[i].at < at) {
			overlap = true;
			break;
		}
		buf_add(&text, k->L->src + at, k->edits[i].at - at);
		buf_addstr(&text, k->edits[i].with);
		at = k->edits[i].at + k->edits[i].len;
	}
	buf_addstr(&text, k->L->src + at);
	int line = 1;
	for (const char *p = k->L->src; p < k->L->src + k->edits[0].at; p++)
		line += *p == '\n';
	for (int i = 0; i < k->nedits; i++)
		free(k->edits[i].with);
	k->nedits = 0;
	char *mutated = buf_detach(&text);
	bool same = overlap || !strcmp(mutated, k->L->src);
	for (int i = 0; i < k->n && !same; i++)
		same = !strcmp(k->m[i].text, mutated);
	if (same) {
		free(mutated);
		free(what);
		return;
	}
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 16;
		k->m = xrealloc(k->m, (size_t)k->cap * sizeof(*k->m));
	}
	k->m[k->n++] = (struct mutant){ op, NULL, line, what, mutated, NULL };
}

/* ------------------------------------------------------------ where a statement or expression starts */

/* A token after which a statement starts. */
static bool
statement_boundary(const struct lexed *L, int i)
{
	return i < 0 || is(L, i, ";") || is(L, i, "{") || is(L, i, "}") || is(L, i, ")") || is(L, i, "else") ||
	       is(L, i, ":");
}

/* Whether a token ends an operand of a comparison or a conditional expression, looking outward. */
static bool
expression_edge(const struct lexed *L, int i)
{
	static const char *const edges[] = { ";", ",", "{", "}", "(", "[", "?", ":", "&&", "||", "=", "+=", "-=",
					     "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "return", "!", NULL };
	for (const char *const *e = edges; *e; e++)
		if (is(L, i, *e))
			return true;
	return false;
}

/* The first token of the operand that ends at token `end`, going left over brackets. */
static int
operand_start(const struct lexed *L, int end, int floor)
{
	int i = end;
	while (i > floor) {
		if ((is(L, i, ")") || is(L, i, "]")) && L->t[i].match >= 0 && L->t[i].match > floor) {
			i = L->t[i].match - 1;
			continue;
		}
		if (expression_edge(L, i))
			break;
		i--;
	}
	return i + 1;
}

/* The first token of the condition of a `?` just after token `end`: && and || belong to it. */
static int
condition_start(const struct lexed *L, int end)
{
	int i = end;
	while (i >= 0) {
		if ((is(L, i, ")") || is(L, i, "]")) && L->t[i].match >= 0) {
			i = L->t[i].match - 1;
			continue;
		}
		if (expression_edge(L, i) && !is(L, i, "&&") && !is(L, i, "||") && !is(L, i, "!"))
			break;
		i--;
	}
	return i + 1;
}

/* The last token of the operand that starts at token `start`, going right over brackets. */
static int
operand_end(const struct lexed *L, int start, int ceiling)
{
	int i = start;
	while (i < ceiling) {
		if ((is(L, i, "(") || is(L, i, "[")) && L->t[i].match >= 0 && L->t[i].match < ceiling) {
			i = L->t[i].match + 1;
			continue;
		}
		if (expression_edge(L, i) || is(L, i, ")") || is(L, i, "]"))
			break;
		i++;
	}
	return i - 1;
}

/* ------------------------------------------------------------ drop_barrier */

static void
drop_barriers(struct maker *k)
{
	const struct lexed *L = k->L;
	for (int i = 0; i < L->n; i++) {
		bool threads = is(L, i, "__syncthreads"), warp = is(L, i, "__syncwarp");
		if ((!threads && !warp) || !is(L, i + 1, "(") || L->t[i + 1].match < 0)
			continue;
		edit_tokens(k, i, L->t[i + 1].match, xstrdup("(void)0"));
		commit(k, MUTANT_DROP_BARRIER, xasprintf("%s() dropped", threads ? "__syncthreads" : "__syncwarp"));
	}
}

/* ------------------------------------------------------------ bound_guard */

static bool
relational(const struct lexed *L, int i)
{
	return L->t[i].kind == TOK_PUNCT && (is(L, i, "<") || is(L, i, "<=") || is(L, i, ">") || is(L, i, ">="));
}

/* `<` opening template arguments (static_cast<int>, template <int N>), and the `>` that closes them. */
static void
mark_template_brackets(const struct lexed *L, bool *skip)
{
	for (int i = 1; i < L->n; i++) {
		if (!is(L, i, "<"))
			continue;
		const struct tok *p = &L->t[i - 1];
		bool cast = p->kind == TOK_IDENT && p->len > 5 && !strncmp(L->src + p->at + p->len - 5, "_cast", 5);
		if (!cast && !is(L, i - 1, "template"))
			continue;
		skip[i] = true;
		for (int j = i + 1, depth = 0; j < L->n && !is(L, j, ";"); j++) {
			depth += is(L, j, "<") - is(L, j, ">");
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
	if (is(L, hi + 1, "?")) {
		int x0 = hi + 2, x1 = operand_end(L, x0, L->n);
		if (!is(L, x1 + 1, ":"))
			return false;
		int y0 = x1 + 2, y1 = operand_end(L, y0, L->n);
		return (same_tokens(L, x0, x1, a0, a1) && same_tokens(L, y0, y1, b0, b1)) ||
		       (same_tokens(L, x0, x1, b0, b1) && same_tokens(L, y0, y1, a0, a1));
	}
	if (is(L, lo - 2, "if") && is(L, hi + 1, ")")) {
		int s = hi + 2 + is(L, hi + 2, "{"), eq = s;
		while (eq < L->n && !is(L, eq, "=") && !is(L, eq, ";"))
			eq++;
		if (!is(L, eq, "="))
			return false;
		int end = operand_end(L, eq + 1, L->n);
		if (!is(L, end + 1, ";"))
			return false;
		return (same_tokens(L, s, eq - 1, a0, a1) && same_tokens(L, eq + 1, end, b0, b1)) ||
		       (same_tokens(L, s, eq - 1, b0, b1) && same_tokens(L, eq + 1, end, a0, a1));
	}
	return false;
}

static void
guard(struct maker *k, int lo, int hi, bool *done, const bool *skip)
{
	const struct lexed *L = k->L;
	for (int i = lo; i <= hi; i++) {
		if (is(L, i, "[") && L->t[i].match > i) {
			i = L->t[i].match; /* an index is no guard */
			continue;
		}
		if (done[i] || skip[i] || !relational(L, i))
			continue;
		done[i] = true;
		bool whole = operand_start(L, i - 1, lo - 1) == lo && operand_end(L, i + 1, hi + 1) == hi;
		if (whole && picks_an_operand(L, i, lo, hi))
			continue;
		const char *from = L->src + L->t[i].at;
		const char *to = is(L, i, "<") ? "<=" : is(L, i, "<=") ? "<" : is(L, i, ">") ? ">=" : ">";
		edit_tokens(k, i, i, xstrdup(to));
		commit(k, MUTANT_BOUND_GUARD, xasprintf("'%.*s' made '%s'", (int)L->t[i].len, from, to));
	}
}

static void
bound_guards(struct maker *k)
{
	const struct lexed *L = k->L;
	bool *done = xcalloc((size_t)L->n + 1, 1), *skip = xcalloc((size_t)L->n + 1, 1);
	mark_template_brackets(L, skip);
	for (int i = 0; i < L->n; i++) {
		if ((is(L, i, "if") || is(L, i, "while")) && is(L, i + 1, "(") && L->t[i + 1].match > i + 1) {
			guard(k, i + 2, L->t[i + 1].match - 1, done, skip);
		} else if (is(L, i, "for") && is(L, i + 1, "(") && L->t[i + 1].match > i + 1) {
			int close = L->t[i + 1].match, semi[2], n = 0;
			for (int j = i + 2; j < close && n < 2; j++) {
				if ((is(L, j, "(") || is(L, j, "[")) && L->t[j].match > j)
					j = L->t[j].match;
				else if (is(L, j, ";"))
					semi[n++] = j;
			}
			if (n == 2)
				guard(k, semi[0] + 1, semi[1] - 1, done, skip);
		} else if (is(L, i, "?")) {
			guard(k, condition_start(L, i - 1), i - 1, done, skip);
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
#define NPAIRS (int)(sizeof(axis_pairs) / sizeof(*axis_pairs))
#define MEMBERS NPAIRS /* the family of threadIdx.x / .y, blockIdx, blockDim, gridDim */

static bool
thread_index_object(const struct lexed *L, int i)
{
	return is(L, i, "threadIdx") || is(L, i, "blockIdx") || is(L, i, "blockDim") || is(L, i, "gridDim");
}

/* Which axis (0 x, 1 y) token i is of `family`, or -1. */
static int
axis_of(const struct lexed *L, int i, int family)
{
	if (family == MEMBERS) {
		if (!is(L, i - 1, ".") || !thread_index_object(L, i - 2))
			return -1;
		return is(L, i, "x") ? 0 : is(L, i, "y") ? 1 : -1;
	}
	if (!is_ident(L, i) || is(L, i - 1, ".") || is(L, i - 1, "->"))
		return -1;
	return is(L, i, axis_pairs[family][0]) ? 0 : is(L, i, axis_pairs[family][1]) ? 1 : -1;
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
			edit_tokens(k, i, i, xstrdup(axis_name(family, !a)));
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

static void
swap_xy(struct maker *k)
{
	const struct lexed *L = k->L;
	/* only code with two axes has them to swap: a 1D kernel's .y is 0 */
	bool two_d = false;
	for (int i = 0; i < L->n && !two_d; i++)
		two_d = axis_of(L, i, MEMBERS) == 1;
	for (int i = 0; i < L->n; i++) {
		if (is(L, i, "[") && L->t[i].match > i) {
			int close = L->t[i].match;
			/* one subscript naming both axes: in[y * cols + x] */
			for (int f = 0; f <= MEMBERS; f++)
				if (swap_axes(k, i + 1, close - 1, f))
					commit(k, MUTANT_SWAP_XY, xasprintf("%s and %s swapped in an index", axis_name(f, 0),
					       axis_name(f, 1)));
			/* two subscripts, one axis each: tile[threadIdx.y][threadIdx.x] */
			if (is(L, close + 1, "[") && L->t[close + 1].match > close + 1 && !is(L, i - 1, "]")) {
				int close2 = L->t[close + 1].match;
				for (int f = 0; f <= MEMBERS; f++)
					for (int a = 0; a < 2; a++)
						if (has_axis(L, i + 1, close - 1, f, a) && has_axis(L, close + 2, close2 - 1, f, !a) &&
						    !has_axis(L, i + 1, close - 1, f, !a)) {
							edit_tokens(k, i + 1, close - 1, span(L, close + 2, close2 - 1));
							edit_tokens(k, close + 2, close2 - 1, span(L, i + 1, close - 1));
							commit(k, MUTANT_SWAP_XY, xstrdup("the two subscripts swapped"));
						}
			}
		}
		/* an index computed from the thread's coordinates: int col = blockIdx.x * blockDim.x + threadIdx.x */
		if (two_d && is(L, i, "=") && is_ident(L, i - 1) && !is(L, i - 2, ".") && !is(L, i - 2, "->")) {
			int end = operand_end(L, i + 1, L->n);
			int seen = 0;
			for (int j = i + 1; j <= end; j++)
				seen |= axis_of(L, j, MEMBERS) >= 0;
			if (!seen || end <= i)
				continue;
			for (int j = i + 1; j <= end; j++) {
				int a = axis_of(L, j, MEMBERS);
				if (a >= 0)
					edit_tokens(k, j, j, xstrdup(a ? "x" : "y"));
			}
			commit(k, MUTANT_SWAP_XY, xasprintf(".x and .y swapped in %.*s", (int)L->t[i - 1].len, L->src + L->t[i - 1].at));
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
		if (!is(L, i, "__shared__"))
			continue;
		int j = i + 1;
		while (j < L->n && !is(L, j, ";") && !(is_ident(L, j) && is(L, j + 1, "[")))
			j++;
		if (!is(L, j + 1, "["))
			continue;
		struct shared_array a = { .name = j };
		for (int b = j + 1; is(L, b, "[") && L->t[b].match > b && a.ndims < 8; b = L->t[b].match + 1) {
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
	if (!statement_boundary(L, i - 1) || !is(L, i + 1, "["))
		return -1;
	int j = i + 1;
	while (is(L, j, "[") && L->t[j].match > j)
		j = L->t[j].match + 1;
	if (!is(L, j, "="))
		return -1;
	for (j++; j < L->n && !is(L, j, ";"); j++)
		if ((is(L, j, "(") || is(L, j, "[") || is(L, j, "{")) && L->t[j].match > j)
			j = L->t[j].match;
		else if (is(L, j, ")") || is(L, j, "]") || is(L, j, "}"))
			return -1;
	return j < L->n ? j : -1;
}

/* The '}' closing the braces around token i, or the end of the file at file scope. */
static int
scope_end(const struct lexed *L, int i)
{
	for (int j = i, depth = 0; j >= 0; j--) {
		if (is(L, j, "}"))
			depth++;
		else if (is(L, j, "{") && depth-- == 0)
			return L->t[j].match >= 0 ? L->t[j].match : L->n;
	}
	return L->n;
}

static void
drop_halos(struct maker *k)
{
	const struct lexed *L = k->L;
	struct shared_array arrays[64];
	int narrays = shared_arrays(L, arrays, 64);
	for (int a = 0; a < narrays; a++) {
		int stores[64], n = 0, end = scope_end(L, arrays[a].name);
		for (int i = arrays[a].name + 1; i < end && n < 64; i++)
			if (same_tokens(L, i, i, arrays[a].name, arrays[a].name) && store_end(L, i) > 0)
				stores[n++] = i;
		/* one store fills the array; a second (a halo, an edge's zero) is the one a kernel forgets */
		if (n < 2)
			continue;
		for (int s = 0; s < n; s++) {
			edit_tokens(k, stores[s], store_end(L, stores[s]), xstrdup(";"));
			commit(k, MUTANT_DROP_HALO, xasprintf("a store into %.*s dropped", (int)L->t[stores[s]].len,
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

static void
drop_padding(struct maker *k)
{
	const struct lexed *L = k->L;
	struct shared_array arrays[64];
	int narrays = shared_arrays(L, arrays, 64);
	for (int a = 0; a < narrays; a++) {
		if (arrays[a].ndims < 2)
			continue; /* a 1D array's extra elements are a halo, not padding */
		int lo = arrays[a].dims[arrays[a].ndims - 1][0], hi = arrays[a].dims[arrays[a].ndims - 1][1];
		const struct tok *last = &L->t[hi];
		if (hi - lo >= 2 && is(L, hi - 1, "+") && (last->kind == TOK_NUMBER || last->kind == TOK_IDENT)) {
			/* [TILE][TILE + 1] → [TILE][TILE] */
			size_t from = L->t[hi - 2].at + L->t[hi - 2].len;
			edit(k, from, last->at + last->len - from, xstrdup(""));
		} else if (hi == lo && last->kind == TOK_NUMBER) {
			/* [32][33] → [32][32] */
			long v = strtol(L->src + last->at, NULL, 0);
			if (v >= 5 && power_of_two(v - 1))
				edit_tokens(k, hi, hi, xasprintf("%ld", v - 1));
		}
		const struct tok *name = &L->t[arrays[a].name];
		commit(k, MUTANT_DROP_PADDING, xasprintf("the padding of %.*s removed", (int)name->len, L->src + name->at));
	}
}

/* ------------------------------------------------------------ drop_partial_tile */

/* The last token of the divisor after a '/' at token i: a name (with .members), a number or a (group). */
static int
divisor_end(const struct lexed *L, int i)
{
	int j = i + 1;
	if (is(L, j, "(") && L->t[j].match > j)
		return L->t[j].match;
	if (L->t[j].kind == TOK_NUMBER)
		return j;
	if (!is_ident(L, j))
		return -1;
	while ((is(L, j + 1, ".") || is(L, j + 1, "->")) && is_ident(L, j + 2))
		j += 2;
	return j;
}

static void
drop_partial_tiles(struct maker *k)
{
	const struct lexed *L = k->L;
	for (int close = 0; close < L->n; close++) {
		if (!is(L, close, ")") || !is(L, close + 1, "/") || L->t[close].match < 0)
			continue;
		int open = L->t[close].match, d0 = close + 2, d1 = divisor_end(L, close + 1);
		if (d1 < 0 || close - open < 4)
			continue;
		/* (A + T - 1) / T: the top-level '+' last before "- 1" */
		if (is(L, close - 2, "-") && is(L, close - 1, "1")) {
			int plus = -1;
			for (int j = open + 1; j < close - 2; j++) {
				if ((is(L, j, "(") || is(L, j, "[")) && L->t[j].match > j)
					j = L->t[j].match;
				else if (is(L, j, "+"))
					plus = j;
			}
			if (plus > open + 1 && same_tokens(L, plus + 1, close - 3, d0, d1)) {
				char *a = span(L, open + 1, plus - 1);
				edit_tokens(k, open, close, plus - 1 == open + 1 ? a : xasprintf("(%s)", a));
				if (plus - 1 != open + 1)
					free(a);
				commit(k, MUTANT_DROP_PARTIAL_TILE, xstrdup("the last partial tile dropped (rounds down)"));
				continue;
			}
		}
		/* (A + 255) / 256 */
		if (is(L, close - 2, "+") && L->t[close - 1].kind == TOK_NUMBER && d0 == d1 && L->t[d0].kind == TOK_NUMBER) {
			long add = strtol(L->src + L->t[close - 1].at, NULL, 0), by = strtol(L->src + L->t[d0].at, NULL, 0);
			if (by > 1 && add == by - 1) {
				char *a = span(L, open + 1, close - 3);
				edit_tokens(k, open, close, close - 3 == open + 1 ? a : xasprintf("(%s)", a));
				if (close - 3 != open + 1)
					free(a);
				commit(k, MUTANT_DROP_PARTIAL_TILE, xstrdup("the last partial tile dropped (rounds down)"));
				continue;
			}
		}
		/* (A - 1) / T + 1 */
		if (is(L, close - 2, "-") && is(L, close - 1, "1") && is(L, d1 + 1, "+") && is(L, d1 + 2, "1")) {
			char *a = span(L, open + 1, close - 3), *t = span(L, d0, d1);
			edit_tokens(k, open, d1 + 2, xasprintf(close - 3 == open + 1 ? "%s / %s" : "(%s) / %s", a, t));
			free(a);
			free(t);
			commit(k, MUTANT_DROP_PARTIAL_TILE, xstrdup("the last partial tile dropped (rounds down)"));
		}
	}
}

/* ------------------------------------------------------------ plain_store */

static void
plain_stores(struct maker *k)
{
	static const struct { const char *name, *assign; } atomics[] = {
		{ "atomicAdd", "+=" }, { "atomicSub", "-=" }, { "atomicOr", "|=" }, { "atomicAnd", "&=" },
		{ "atomicXor", "^=" }, { "atomicExch", "=" },  { "atomicMax", "max" }, { "atomicMin", "min" },
	};
	const struct lexed *L = k->L;
	for (int i = 0; i < L->n; i++) {
		/* (void)atomicAdd(p, v); goes whole: a cast of a store is no statement */
		int first = is(L, i - 1, ")") && is(L, i - 2, "void") && is(L, i - 3, "(") ? i - 3 : i;
		if (!is_ident(L, i) || !is(L, i + 1, "(") || !statement_boundary(L, first - 1))
			continue;
		int close = L->t[i + 1].match;
		if (close < 0 || !is(L, close + 1, ";"))
			continue; /* its old value is used: no plain store gives that */
		const char *assign = NULL;
		size_t len = L->t[i].len;
		for (size_t a = 0; a < sizeof(atomics) / sizeof(*atomics); a++) {
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
			if ((is(L, j, "(") || is(L, j, "[")) && L->t[j].match > j)
				j = L->t[j].match;
			else if (is(L, j, ",")) {
				comma = j;
				break;
			}
		}
		if (comma < 0 || comma == i + 2 || comma + 1 >= close)
			continue;
		char *pointer = span(L, i + 2 + is(L, i + 2, "&"), comma - 1);
		char *target = is(L, i + 2, "&") ? xstrdup(pointer)
			       : comma - 1 == i + 2 ? xasprintf("*%s", pointer) : xasprintf("*(%s)", pointer);
		free(pointer);
		char *value = span(L, comma + 1, close - 1);
		char *with = assign[0] == 'm' ? xasprintf("%s = %s(%s, %s)", target, assign, target, value)
					      : xasprintf("%s %s %s", target, assign, value);
		edit_tokens(k, first, close, with);
		commit(k, MUTANT_PLAIN_STORE, xasprintf("%.*s made a plain store", (int)len, L->src + L->t[i].at));
		free(target);
		free(value);
	}
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
	lex(source, &L);
	struct maker k = { .L = &L, .path = path };
	drop_barriers(&k);
	bound_guards(&k);
	swap_xy(&k);
	drop_halos(&k);
	drop_padding(&k);
	drop_partial_tiles(&k);
	plain_stores(&k);
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
		k.m[i].diff = unified_diff(source, k.m[i].text, path, k.m[i].id);
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
mutant_id_valid(const char *id, const char **why, const char **near)
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
