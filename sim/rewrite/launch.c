/*
 * launch.c — the rewriter's launches: k<<<g, b, s, st>>>(args) becomes
 * ::cudasim::launch(...), and cudaLaunchCooperativeKernel((void *)k, ...),
 * cudaLaunchKernel and cudaLaunchKernelEx keep the kernel's type, name and line.
 */
#include "sim/rewrite/rewrite.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

static void
add_name(struct buf *b, int from, int to)
{
	for (int j = from; j <= to; j++) {
		if (j > from && toks[j].kind == LEX_IDENT && toks[j - 1].kind == LEX_IDENT)
			buf_addstr(b, " ");
		for (size_t k = toks[j].start; k < toks[j].end; k++) {
			if (src[k] == '"' || src[k] == '\\')
				buf_addstr(b, "\\");
			buf_add(b, src + k, 1);
		}
	}
}

/* The first token of the kernel expression that ends at token end. */
static int
kernel_start(int end)
{
	int j = end, start = -1;

	if (tok_is(j, ")")) {
		int o = match_backward(j, '(', ')');

		return o;
	}
	for (;;) {
		if (tok_is(j, ">")) {
			int o = match_backward(j, '<', '>');

			if (o < 0)
				return -1;
			j = o - 1;
		}
		/* a kernel picked from an array of them: table[i]<<<...>>> */
		while (tok_is(j, "]")) {
			int o = match_backward(j, '[', ']');

			if (o < 0)
				return -1;
			j = o - 1;
		}
		if (j < 0 || toks[j].kind != LEX_IDENT || toks[j].seg != toks[end].seg)
			return start;
		start = j--;
		if (ident_is(j, "template"))
			start = j--;
		if (!tok_is(j, "::"))
			return start;
		start = j--;
		if (j < 0 || (toks[j].kind != LEX_IDENT && !tok_is(j, ">")))
			return start;
	}
}

/*
 * The arguments from after ">>>" to the closing ')'. The launch stores them
 * by value, so a lone NULL or 0 would lose its meaning of a null pointer:
 * such an argument becomes a value that converts to any parameter type.
 */
static void
add_arguments(struct buf *b, int gt_last, int lp, int rp)
{
	size_t pos = toks[gt_last].end;
	int depth = 0, first = lp + 1;

	for (int j = lp + 1; j <= rp; j++) {
		if (j == rp || (depth == 0 && tok_is(j, ","))) {
			if (j == first + 1 && (ident_is(first, "NULL") || ident_is(first, "nullptr") ||
					       tok_is(first, "0"))) {
				buf_src(b, pos, toks[first].start);
				buf_addstr(b, "::cudasim::null_arg()");
				pos = toks[first].end;
			}
			first = j + 1;
			continue;
		}
		if (tok_is(j, "(") || tok_is(j, "[") || tok_is(j, "{"))
			depth++;
		else if (tok_is(j, ")") || tok_is(j, "]") || tok_is(j, "}"))
			depth--;
	}
	buf_src(b, pos, toks[rp].end);
}

/* k<<<config>>>(args) starting at the "<<<" at index lt; returns the index after it. */
int
rewrite_launch(int lt)
{
	int gt = -1, lp, rp, start, nargs = 1, depth = 0;
	struct buf b = BUF_INIT;

	for (int j = lt + 3; j < ntoks && toks[j].seg == toks[lt].seg; j++) {
		if (depth == 0 && triple(j, '>')) {
			gt = j;
			break;
		}
		if (tok_is(j, "(") || tok_is(j, "[") || tok_is(j, "{"))
			depth++;
		else if (tok_is(j, ")") || tok_is(j, "]") || tok_is(j, "}"))
			depth--;
		else if (depth == 0 && tok_is(j, ","))
			nargs++;
		else if (depth == 0 && tok_is(j, ";"))
			break;
		if (depth < 0)
			break;
	}
	if (gt < 0)
		fail(toks[lt].line, "kernel launch: '<<<' without its closing '>>>'");
	if (gt == lt + 3)
		fail(toks[lt].line, "kernel launch: nothing between '<<<' and '>>>' (give the grid and the block)");
	if (nargs < 2 || nargs > 4)
		fail(toks[lt].line, "kernel launch: %d argument%s between '<<<' and '>>>'; a launch takes "
		     "2 to 4 (grid, block, shared memory bytes, stream)", nargs, nargs == 1 ? "" : "s");
	lp = gt + 3;
	if (!tok_is(lp, "(") || toks[lp].seg != toks[lt].seg)
		fail(toks[gt].line, "kernel launch: '>>>' must be followed by the kernel's arguments in parentheses");
	rp = match_forward(lp);
	if (rp < 0)
		fail(toks[lp].line, "kernel launch: the argument list has no closing ')'");
	start = lt > 0 ? kernel_start(lt - 1) : -1;
	if (start < 0)
		fail(toks[lt].line, "kernel launch: no kernel name before '<<<'");

	/* by copy: a kernel reached through a pointer variable is then part of the launch's own copy,
	   the only memory of the launcher's that its threads may read (check.c) */
	buf_addf(&b, "::cudasim::launch([%s](auto &&...cudasim_a_) { ",
		at_namespace_scope() ? "" : "=");
	buf_src(&b, toks[start].start, toks[lt - 1].end);
	buf_addstr(&b, "(cudasim_a_...); }, \"");
	add_name(&b, start, lt - 1);
	buf_addstr(&b, "\", __FILE__, __LINE__)");
	buf_src(&b, toks[lt - 1].end, toks[lt].start);
	buf_addstr(&b, "(");
	buf_src(&b, toks[lt + 2].end, toks[gt].start);
	buf_addstr(&b, ")");
	add_arguments(&b, gt + 2, lp, rp);
	add_edit(toks[start].start, toks[rp].end, buf_detach(&b));
	return rp + 1;
}

/* The token after a cast that hides the kernel's type, "(const void *)", at j; j when there is none. */
static int
skip_void_cast(int j)
{
	if (tok_is(j, "(")) {
		int k = j + 1;
		bool is_void = false;

		while (ident_is(k, "const") || ident_is(k, "void") || ident_is(k, "volatile") || tok_is(k, "*")) {
			is_void |= ident_is(k, "void");
			k++;
		}
		if (is_void && tok_is(k, ")"))
			return k + 1;
	}
	return j;
}

/* The token after a kernel's name that starts at j, ns::k<256, true> (its template arguments' commas are not
   the call's); j when there is none. */
static int
name_end(int j)
{
	while (j < ntoks && (toks[j].kind == LEX_IDENT || tok_is(j, "::"))) {
		j++;
		if (tok_is(j, "<") && toks[j - 1].kind == LEX_IDENT) {
			int depth = 0;

			for (; j < ntoks && !tok_is(j, ";"); j++) {
				if ((tok_is(j, "(") || tok_is(j, "[")) && (j = match_forward(j)) < 0)
					return -1;
				if (tok_is(j, "<"))
					depth++;
				else if (tok_is(j, ">") && --depth == 0)
					break;
			}
			if (j >= ntoks || depth)
				return -1;
			j++;
		}
	}
	return j;
}

/* The token that ends the argument starting at j (its "," or ")"); -1 when it does not end. */
static int
argument_end(int j)
{
	int end = name_end(j);

	if (end < 0)
		return -1;
	for (; end < ntoks && !tok_is(end, ",") && !tok_is(end, ")") && !tok_is(end, ";"); end++)
		if ((tok_is(end, "(") || tok_is(end, "[")) && (end = match_forward(end)) < 0)
			return -1;
	return end < ntoks && end > j ? end : -1;
}

/*
 * The launches by the runtime's functions, whose kernel is an argument:
 * cudaLaunchCooperativeKernel((void *)k, grid, block, args, smem, stream),
 * cudaLaunchKernel the same, cudaLaunchKernelEx(&config, k, args...), and
 * cudaLaunchKernelExC(&config, (const void *)k, args).
 * The kernel's parameters unpack args (or take the arguments), so the cast
 * that hides its type goes, and its name and line come along:
 * ::cudasim::launch_cooperative("k", __FILE__, __LINE__, k, grid, ...), and
 * ::cudasim::launch_kernel, ::cudasim::launch_ex and ::cudasim::launch_ex_c so. Returns the token
 * after the kernel's name.
 */
int
rewrite_launch_call(int i)
{
	static const struct { const char *call, *to; int kernel_at; } calls[] = {
		{ "cudaLaunchCooperativeKernel", "launch_cooperative", 0 },
		{ "cudaLaunchKernel", "launch_kernel", 0 },
		{ "cudaLaunchKernelEx", "launch_ex", 1 },
		{ "cudaLaunchKernelExC", "launch_ex_c", 1 },
	};
	int which = 0;
	while (!ident_is(i, calls[which].call))
		which++;
	int j = i + 2, name, end;
	struct buf b = BUF_INIT;

	/* the arguments before the kernel's */
	for (int a = 0; a < calls[which].kernel_at; a++) {
		if ((j = argument_end(j)) < 0 || !tok_is(j, ","))
			return i + 1;
		j++;
	}
	name = skip_void_cast(j);
	if ((end = argument_end(name)) < 0)
		return i + 1;
	buf_addf(&b, "::cudasim::%s(\"", calls[which].to);
	for (size_t c = toks[name].start; c < toks[end - 1].end; c++)
		if (lex_ident_char(src[c]) || src[c] == ':' || src[c] == '<' || src[c] == '>' || src[c] == ',')
			buf_addf(&b, "%c", src[c]);
	buf_addstr(&b, "\", __FILE__, __LINE__, ");
	if (j == i + 2) {
		add_edit(toks[i].start, toks[name].start, keep_lines(&b, toks[i].start, toks[name].start));
	} else {
		/* the arguments before the kernel stay; its cast goes */
		add_edit(toks[i].start, toks[i + 2].start, keep_lines(&b, toks[i].start, toks[i + 2].start));
		if (name != j)
			add_edit(toks[j].start, toks[name].start, keep_lines(&b, toks[j].start, toks[name].start));
	}
	return end;
}
