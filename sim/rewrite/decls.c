/*
 * decls.c — the rewriter's declarations: __shared__ variables bound to the
 * block's arena (extern __shared__ to the dynamic one), namespace-scope
 * __device__ and __constant__ variables put in the section kernel code may
 * reach, and __noinline__ as g++'s attribute.
 */
#include "sim/rewrite/rewrite.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

static int counter;	/* one per __shared__ declaration in a function: its slots' names */

static bool
is_decl_boundary(int j, int seg)
{
	return j < 0 || toks[j].seg != seg || tok_is(j, ";") || tok_is(j, "{") ||
	       tok_is(j, "}") || (tok_is(j, ":") && !tok_is(j - 1, ":"));
}


/* The statement's end: the ';' at depth 0 after i. */
static int
decl_end(int i)
{
	int depth = 0;

	for (int j = i; j < ntoks && toks[j].seg == toks[i].seg; j++) {
		if (tok_is(j, "(") || tok_is(j, "[") || tok_is(j, "{"))
			depth++;
		else if (tok_is(j, ")") || tok_is(j, "]") || tok_is(j, "}"))
			depth--;
		else if (depth == 0 && tok_is(j, ";"))
			return j;
		if (depth < 0)
			return -1;
	}
	return -1;
}

/* Names declared in tokens [from, to): the last identifier before the first
 * '[', '=', ',' of each declarator. */
static int
declarator_names(int from, int to, int *names, int max)
{
	int n = 0, last = -1, depth = 0;
	bool in_init = false;

	for (int j = from; j <= to && n < max; j++) {
		int k = skip_attribute(j);

		if (k != j) {
			j = k - 1;
			continue;
		}
		if (j == to || (depth == 0 && tok_is(j, ","))) {
			if (last >= 0)
				names[n++] = last;
			last = -1;
			in_init = false;
			continue;
		}
		if (tok_is(j, "(") || tok_is(j, "[") || tok_is(j, "{") || tok_is(j, "<"))
			depth++;
		else if (tok_is(j, ")") || tok_is(j, "]") || tok_is(j, "}") || tok_is(j, ">"))
			depth--;
		if (tok_is(j, "="))
			in_init = true;
		if (!in_init && depth == 0 && toks[j].kind == LEX_IDENT &&
		    !ident_is(j, "const") && !ident_is(j, "volatile") && !ident_is(j, "__restrict__"))
			last = j;
	}
	return n;
}

static int
rewrite_dynamic_shared(int first, int sh, int end, bool ns)
{
	int names[1], lb = -1, name;
	struct buf b = BUF_INIT, type = BUF_INIT;

	if (declarator_names(sh + 1, end, names, 1) != 1)
		fail(toks[sh].line, "extern __shared__: cannot find the array's name");
	name = names[0];
	lb = name + 1;
	if (!tok_is(lb, "[") || !tok_is(lb + 1, "]"))
		fail(toks[sh].line, "extern __shared__ declares an array of unknown size, like "
		     "'extern __shared__ float s[];'");
	for (int j = first; j < name; j++) {
		int k = skip_attribute(j);

		if (k != j) {
			j = k - 1;
			continue;
		}
		if (ident_is(j, "extern") || ident_is(j, "__shared__") || ident_is(j, "static"))
			continue;
		if (type.len)
			buf_addstr(&type, " ");
		buf_src(&type, toks[j].start, toks[j].end);
	}
	if (!type.len)
		fail(toks[sh].line, "extern __shared__: the array has no element type");
	if (lb + 2 == end) {
		buf_addf(&b, "%s%s *const ", ns ? "static " : "", type.data);
		buf_src(&b, toks[name].start, toks[name].end);
		buf_addf(&b, " = (%s *)cudasim_dyn_smem;", type.data);
	} else {
		/* extern __shared__ T s[][N]: a pointer to rows of N */
		struct buf rest = BUF_INIT;

		for (int j = lb + 2; j < end; j++)
			buf_src(&rest, toks[j].start, toks[j].end);
		buf_addf(&b, "%s%s (*const ", ns ? "static " : "", type.data);
		buf_src(&b, toks[name].start, toks[name].end);
		buf_addf(&b, ")%s = (%s (*)%s)cudasim_dyn_smem;", rest.data, type.data, rest.data);
		buf_free(&rest);
	}
	buf_free(&type);
	add_edit(toks[first].start, toks[end].end, keep_lines(&b, toks[first].start, toks[end].end));
	return end + 1;
}

/* The source of tokens [from, to), leaving out storage classes, __shared__
 * and attributes (slots are aligned anyway): one space where the source had
 * any between two tokens, none where it had none, so "<<" stays a shift. */
static void
add_tokens(struct buf *b, int from, int to)
{
	int last = -1;

	for (int j = from; j < to; j++) {
		int k = skip_attribute(j);

		if (k != j) {
			j = k - 1;
			continue;
		}
		if (ident_is(j, "__shared__") || ident_is(j, "static") || ident_is(j, "extern"))
			continue;
		if (b->len && b->data[b->len - 1] != ' ' && (last < 0 || toks[last].end != toks[j].start))
			buf_addstr(b, " ");
		buf_src(b, toks[j].start, toks[j].end);
		last = j;
	}
}

/*
 * __shared__ T x[N], *p; becomes, for each declarator, a reference bound to
 * the declaration's slot in the static shared arena:
 *   T (&x)[N] = *(T (*)[N])(cudasim_shared_at(sizeof(T [N]), ...));
 * (a C cast, not reinterpret_cast<>: N may hold a '>>') so x keeps its type (sizeof, decay, &x) and lives at a fixed address that
 * the first thread of each block poisons.
 */
int
rewrite_shared(int sh)
{
	int first = sh, end = decl_end(sh), names[64], n, type_end, part = -1;
	bool ext = false, ns = at_namespace_scope();
	struct buf b = BUF_INIT, type = BUF_INIT;

	if (toks[sh].seg)
		return sh + 1;		/* in a macro: the header's fallback (static) applies */
	while (!is_decl_boundary(first - 1, toks[sh].seg))
		first--;
	if (end < 0)
		fail(toks[sh].line, "__shared__ declaration without its ';'");
	for (int j = first; j < end; j++)
		ext |= ident_is(j, "extern");
	if (ext)
		return rewrite_dynamic_shared(first, sh, end, ns);

	n = declarator_names(first, end, names, 64);
	if (!n)
		fail(toks[sh].line, "__shared__: cannot find the variable's name");
	/* the type ends where the first declarator starts: at a '*' or '&' (not one inside a class's body), or
	   its name */
	type_end = names[0];
	bool body = false;
	for (int j = first, depth = 0; j < names[0]; j++) {
		if (tok_is(j, "{"))
			depth++, body = true;
		else if (tok_is(j, "}"))
			depth--;
		else if (depth == 0 && (tok_is(j, "*") || tok_is(j, "&"))) {
			type_end = j;
			break;
		}
	}
	add_tokens(&type, first, type_end);
	if (!type.len)
		fail(toks[sh].line, "__shared__: the variable has no type");
	if (body) {
		/* __shared__ struct { ... } s;: a type defined in the declaration may not be defined again in each
		   cast and sizeof, so it is named once */
		struct buf named = BUF_INIT;

		buf_addf(&named, "cudasim_shared_type%d_", counter);
		buf_addf(&b, "typedef %s %s; ", type.data, named.data);
		buf_free(&type);
		type = named;
	}
	for (int i = 0; i < n; i++) {
		struct buf pre = BUF_INIT, post = BUF_INIT, nm = BUF_INIT;
		int from = i == 0 ? type_end : part + 1, to;
		int depth = 0;

		/* this declarator: [from, to), up to the next top-level ',' or the ';' */
		for (to = names[i]; to < end; to++) {
			if (tok_is(to, "(") || tok_is(to, "[") || tok_is(to, "{") || tok_is(to, "<"))
				depth++;
			else if (tok_is(to, ")") || tok_is(to, "]") || tok_is(to, "}") || tok_is(to, ">"))
				depth--;
			else if (depth == 0 && tok_is(to, ","))
				break;
		}
		part = to;
		add_tokens(&pre, from, names[i]);
		add_tokens(&post, names[i] + 1, to);
		/* (&x)[N] binds to an array; a plain &x needs no parentheses */
		if (post.len)
			buf_addf(&nm, "(&%.*s)", (int)(toks[names[i]].end - toks[names[i]].start),
				src + toks[names[i]].start);
		else
			buf_addf(&nm, "&%.*s", (int)(toks[names[i]].end - toks[names[i]].start),
				src + toks[names[i]].start);
		if (ns)
			/* the reference is what kernel code reads: in the section check.c lets it reach */
			buf_addf(&b, "static %s %s%s%s __attribute__((section(\"cudasim_device\"))) = *(%s %s(*)%s)("
				"cudasim_shared_global_at(sizeof(%s %s%s)));",
				type.data, pre.data, nm.data, post.data,
				type.data, pre.data, post.data,
				type.data, pre.data, post.data);
		else
			buf_addf(&b, "static unsigned cudasim_slot%d_%d_, cudasim_ep%d_%d_; "
				"%s %s%s%s = *(%s %s(*)%s)(cudasim_shared_at("
				"sizeof(%s %s%s), &cudasim_slot%d_%d_, &cudasim_ep%d_%d_));",
				counter, i, counter, i,
				type.data, pre.data, nm.data, post.data,
				type.data, pre.data, post.data,
				type.data, pre.data, post.data,
				counter, i, counter, i);
		if (i + 1 < n)
			buf_addstr(&b, " ");
		buf_free(&pre);
		buf_free(&post);
		buf_free(&nm);
	}
	counter++;
	buf_free(&type);
	add_edit(toks[first].start, toks[end].end, keep_lines(&b, toks[first].start, toks[end].end));
	return end + 1;
}

/*
 * A namespace-scope __device__ or __constant__ variable goes into the section
 * that the order check snapshots and that check.c lets kernel code reach
 * (the rest of the host's globals are out of a kernel's reach, as on a GPU);
 * functions are left alone, and so are const variables, which stay read-only
 * data (a section may not hold both).
 */
void
rewrite_device_var(int i)
{
	int depth = 0;
	bool constant = ident_is(i, "__constant__");

	if (toks[i].seg || !at_namespace_scope())
		return;
	for (int j = i - 1; !is_decl_boundary(j, 0) && !tok_is(j, ")"); j--)
		if (ident_is(j, "extern") || ident_is(j, "const") || ident_is(j, "constexpr") ||
		    ident_is(j, "template") || tok_is(j, ">") || (!constant && ident_is(j, "__constant__")))
			return;
	for (int j = i + 1; j < ntoks && toks[j].seg == 0; j++) {
		int k = skip_attribute(j);

		if (k != j) {
			j = k - 1;
			continue;
		}
		/* "__device__ __constant__": the section goes with __constant__ */
		if (ident_is(j, "const") || ident_is(j, "constexpr") || (!constant && ident_is(j, "__constant__")))
			return;
		if (tok_is(j, "(") && (ident_is(j - 1, "decltype") || ident_is(j - 1, "__typeof__") ||
				       ident_is(j - 1, "typeof") || ident_is(j - 1, "alignas"))) {
			/* a type's parentheses, not a function's */
			if ((j = match_forward(j)) < 0)
				return;
		} else if (tok_is(j, "<"))
			depth++;
		else if (tok_is(j, ">"))
			depth--;
		else if (depth == 0 && tok_is(j, "(") && !tok_is(j + 1, "*") && !tok_is(j + 1, "&"))
			return;		/* a function; "T (*name)(args)" is a pointer to one, a variable */
		else if (depth == 0 && tok_is(j, "("))
			break;
		else if (depth == 0 && (tok_is(j, ";") || tok_is(j, "=") || tok_is(j, "[") ||
					tok_is(j, ",") || tok_is(j, "{")))
			break;
	}
	add_edit(toks[i].start, toks[i].end, xstrdup("__attribute__((section(\"cudasim_device\")))"));
}

/*
 * CUDA's __noinline__, as an attribute of g++'s: not a macro, which would
 * break the C++ library's own __attribute__((__noinline__)).
 */
void
rewrite_noinline(int i)
{
	if (i > 0 && (tok_is(i - 1, "(") || tok_is(i - 1, ",") || tok_is(i - 1, ":")))
		return;		/* the attribute's own name, inside __attribute__((...)) or [[gnu::...]] */
	add_edit(toks[i].start, toks[i].end, xstrdup("__attribute__((noinline))"));
}
