/*
 * bounds.c — a kernel's __launch_bounds__(N[, M[, C]]). Its first statement
 * tells the simulator N, since a GPU refuses a launch of more threads per
 * block than the kernel was compiled for; and names the kernel's own address
 * with N to the runtime, which registers it as the program loads (each
 * instance of a template that is compiled registers its own), so that
 * cudaFuncGetAttributes and the occupancy API answer N before the first
 * launch, as a GPU's do.
 *
 * The arguments go whole to cudasim_bound_first (cudasim.h), which returns
 * its first: g++ parses them as nvcc does, where a cut at a comma cannot tell
 * `T > 512 ? 512 : T, 2` from `Traits<256, 4>::threads`.
 */
#include "sim/rewrite/rewrite.h"

#include <stdbool.h>

#include "lib/util.h"

/* Tokens [from, to) on one line, a space where the source has space or a comment between two: no comment or
   newline of the source comes along (a line comment would swallow the rest of the statement, a newline
   would move the lines after it), and 1 << 8 stays a shift. False where a preprocessor directive lies
   inside. */
static bool
copy_tokens(struct buf *b, int from, int to)
{
	for (int i = from; i < to; i++) {
		if (toks[i].seg)
			return false;
		if (i > from && toks[i].start > toks[i - 1].end)
			buf_addstr(b, " ");
		buf_src(b, toks[i].start, toks[i].end);
	}
	return true;
}

static bool
is_open(int i)
{
	return tok_is(i, "(") || tok_is(i, "[") || tok_is(i, "{");
}

static bool
is_close(int i)
{
	return tok_is(i, ")") || tok_is(i, "]") || tok_is(i, "}");
}

/* The '>' that closes the template parameter list opened at lt, or -1. */
static int
close_angle(int lt, int limit)
{
	int angles = 0, brackets = 0;

	for (int i = lt; i < limit; i++) {
		brackets += is_open(i) - is_close(i);
		if (brackets == 0 && tok_is(i, "<"))
			angles++;
		else if (brackets == 0 && tok_is(i, ">") && --angles == 0)
			return i;
	}
	return -1;
}

/* The end of the list item that starts at from: its ',' at no depth, or end. angles: '<' and '>' nest too (a
   template's parameter list, where no comparison stands outside parentheses). */
static int
item_end(int from, int end, bool angles)
{
	int depth = 0;

	for (int i = from; i < end; i++) {
		if (is_open(i) || (angles && tok_is(i, "<")))
			depth++;
		else if (is_close(i) || (angles && tok_is(i, ">")))
			depth--;
		else if (depth == 0 && tok_is(i, ","))
			return i;
	}
	return end;
}

/* The '=' of a default in the declaration [from, to), or to. */
static int
default_at(int from, int to)
{
	for (int i = from, depth = 0; i < to; i++) {
		depth += is_open(i) - is_close(i);
		if (depth == 0 && tok_is(i, "="))
			return i;
	}
	return to;
}

/* The name that template parameter [from, to) declares, into b ("N", "Ts..."); false where it has none
   (template <int>, template <std::size_t>): then no instance of the kernel can be named. */
static bool
parameter_name(struct buf *b, int from, int to)
{
	static const char *const types[] = { "typename", "class", "int", "unsigned", "signed", "long", "short",
					     "char", "bool", "auto", "float", "double", "const", "volatile" };
	bool pack = false;
	int last;

	to = default_at(from, to);
	for (int i = from; i + 2 < to; i++)
		pack |= tok_is(i, ".") && tok_is(i + 1, ".") && tok_is(i + 2, ".");
	last = to - 1;
	if (last <= from || toks[last].kind != LEX_IDENT || tok_is(last - 1, "::"))
		return false;
	for (size_t t = 0; t < ARRAY_SIZE(types); t++)
		if (ident_is(last, types[t]))
			return false;
	buf_src(b, toks[last].start, toks[last].end);
	if (pack)
		buf_addstr(b, "...");
	return true;
}

/* "<A, B, Ts...>", the arguments that name this instance of a template whose parameter list is [lt, gt]. */
static bool
template_arguments(struct buf *b, int lt, int gt)
{
	buf_addstr(b, "<");
	for (int from = lt + 1, end; from < gt; from = end + 1) {
		end = item_end(from, gt, true);
		if (from > lt + 1)
			buf_addstr(b, ", ");
		if (!parameter_name(b, from, end))
			return false;
	}
	buf_addstr(b, ">");
	return true;
}

/* The kernel's parameter list (open at lp), without default arguments, which a function's type cannot
   have; false where a default has a '<' (its commas may be a template's, cut here as the call's). */
static bool
parameter_types(struct buf *b, int lp)
{
	int rp = match_forward(lp);

	if (rp < 0)
		return false;
	buf_addstr(b, "(");
	for (int from = lp + 1, end; from < rp; from = end + 1) {
		int to;

		end = item_end(from, rp, false);
		to = default_at(from, end);
		for (int j = to; j < end; j++)
			if (tok_is(j, "<"))
				return false;
		if (from > lp + 1)
			buf_addstr(b, ", ");
		if (!copy_tokens(b, from, to))
			return false;
	}
	buf_addstr(b, ")");
	return true;
}

/* The kernel's own address, an expression constant in its body: &k, &k<B, T> for a template's instance, cast
   to the kernel's type where its name is overloaded (or a template's specialization); false where the
   body cannot name it. */
static bool
kernel_address(struct buf *b, int name, bool overloaded)
{
	int start = name, lt = -1, gt = -1;
	struct buf args, type;
	bool ok = true;

	while (start > 0 && toks[start - 1].seg == toks[name].seg && !tok_is(start - 1, ";") &&
	       !tok_is(start - 1, "}") && !tok_is(start - 1, "{"))
		start--;
	/* a parameter of the kernel's name hides the kernel in its body */
	for (int i = name + 2, rp = match_forward(name + 1); i < rp; i++)
		if (same_text(i, name))
			return false;
	if (ident_is(start, "extern") && toks[start + 1].kind == LEX_STRING)
		start += 2;	/* extern "C" */
	if (ident_is(start, "template") && tok_is(start + 1, "<")) {
		lt = start + 1;
		gt = close_angle(lt, name);
		if (gt < 0)
			return false;
		overloaded |= gt == lt + 1;
	}
	buf_init(&args);
	buf_init(&type);
	if (lt >= 0 && gt > lt + 1)
		ok = template_arguments(&args, lt, gt);
	if (ok && overloaded)
		ok = parameter_types(&type, name + 1);
	if (ok) {
		if (overloaded)
			buf_addf(b, "static_cast<void (*)%s>(", buf_str(&type));
		buf_addstr(b, "&");
		buf_src(b, toks[name].start, toks[name].end);
		buf_addstr(b, buf_str(&args));
		if (overloaded)
			buf_addstr(b, ")");
	}
	buf_free(&args);
	buf_free(&type);
	return ok;
}

/*
 * The kernel whose name is at token name and whose body opens at body: where its declaration has
 * __launch_bounds__, its first statements. overloaded: another kernel of this file has its name.
 */
void
rewrite_launch_bounds(int name, int body, bool overloaded)
{
	struct buf b, self;
	int lb = -1, close;
	bool named;

	for (int j = name - 1; j >= 0 && toks[j].seg == toks[name].seg && !tok_is(j, ";") && !tok_is(j, "}") &&
			       !tok_is(j, "{"); j--)
		if (ident_is(j, "__launch_bounds__") && tok_is(j + 1, "(")) {
			lb = j;
			break;
		}
	if (lb < 0 || (close = match_forward(lb + 1)) <= lb + 2)
		return;
	buf_init(&b);
	buf_init(&self);
	named = kernel_address(&self, name, overloaded);
	buf_addstr(&b, " ::cudasim_launch_bounds(::cudasim_bound_first(");
	if (!copy_tokens(&b, lb + 2, close)) {
		buf_free(&b);
		buf_free(&self);
		return;
	}
	/* where the kernel cannot be named (a template's parameter of no name), the runtime lets a launch
	   exceed the bound when it answered a query without knowing (launch.c) */
	buf_addf(&b, "), __func__, %d);", named);
	if (named) {
		buf_addf(&b, " (void)&::cudasim_bounds_of<%s, (::cudasim_bound_first(", buf_str(&self));
		copy_tokens(&b, lb + 2, close);
		buf_addstr(&b, "))>::known;");
	}
	buf_free(&self);
	add_edit(toks[body].end, toks[body].end, buf_detach(&b));
}
