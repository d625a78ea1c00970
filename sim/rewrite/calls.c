/*
 * calls.c — what nvcc's front end refuses and g++ would let through, judged
 * on the functions this file defines: a kernel called without <<<>>>, a host
 * function called from device code, <<<>>> on a host function. And what a
 * definition's first statement tells the simulator: that host code runs (and
 * which kernels bounds.c gives their __launch_bounds__). And the attributes
 * that would take code out of the simulator's checks.
 */
#include "sim/rewrite/rewrite.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* ---------------------------------------------------------------- code out of the checks */

/*
 * The student's file is instrumented so that the simulator sees every access of its kernels (sim/check.c);
 * a function marked no_sanitize would not be, and its accesses would pass the budgets unseen. nvcc ignores
 * the attribute, so no kernel needs it: refused wherever it is named (an #undef of cudasim.h's stand-in
 * too), with the simulator's own marker.
 */
void
check_uninstrumented(void)
{
	static const char *const names[] = { "no_sanitize", "__no_sanitize__", "no_sanitize_thread",
					      "__no_sanitize_thread__", "CUDASIM_UNCHECKED" };

	for (int i = 0; i < ntoks; i++)
		for (size_t k = 0; toks[i].kind == LEX_IDENT && k < ARRAY_SIZE(names); k++)
			if (ident_is(i, names[k]))
				fail(toks[i].line, "'%s' would take code out of the simulator's checks of every access: "
				     "remove it (nvcc ignores it, and no kernel needs it)", names[k]);
	/* cudasim.h makes a copy's builtins the calls the checks see (g++ expands a builtin of a known size
	   into moves no check sees): they may be used, never given back their own meaning */
	static const char *const copies[] = { "__builtin_memcpy", "__builtin_memmove", "__builtin_memset",
					       "__builtin_mempcpy", "__builtin___memcpy_chk", "__builtin___memmove_chk",
					       "__builtin___memset_chk", "__builtin___mempcpy_chk", "__builtin_bzero",
					       "__builtin_bcopy" };
	for (int i = 2; i < ntoks; i++)
		for (size_t k = 0; toks[i].seg && toks[i].kind == LEX_IDENT && k < ARRAY_SIZE(copies); k++)
			if (ident_is(i, copies[k]) && toks[i - 1].seg == toks[i].seg && tok_is(i - 2, "#") &&
			    (ident_is(i - 1, "undef") || ident_is(i - 1, "define")))
				fail(toks[i].line, "'#%s %s' would hide a copy from the simulator's checks of every "
				     "access: remove it", ident_is(i - 1, "undef") ? "undef" : "define", copies[k]);
}

/* ---------------------------------------------------------------- kernels called like functions */

static bool *is_kernel_decl;	/* per token: the name in a __global__ declaration */

/* The name a __global__ declaration at i declares: the identifier before its '('. */
static int
kernel_decl_name(int i)
{
	int depth = 0;

	for (int j = i + 1; j < ntoks && toks[j].seg == toks[i].seg; j++) {
		int k = skip_attribute(j);

		if (k != j || ident_is(j, "__launch_bounds__")) {
			j = (k != j ? k : (tok_is(j + 1, "(") ? match_forward(j + 1) + 1 : j + 1)) - 1;
			continue;
		}
		if (tok_is(j, "<"))
			depth++;
		else if (tok_is(j, ">"))
			depth--;
		else if (depth == 0 && tok_is(j, "(") && tok_is(j - 1, ">")) {
			/* an explicit instantiation's name, k<256>( */
			int o = match_backward(j - 1, '<', '>');
			return o > 0 && toks[o - 1].kind == LEX_IDENT ? o - 1 : -1;
		} else if (depth == 0 && tok_is(j, "("))
			return toks[j - 1].kind == LEX_IDENT ? j - 1 : -1;
		else if (tok_is(j, ";") || tok_is(j, "{"))
			return -1;
	}
	return -1;
}

/* Is token i inside an explicit instantiation, "[extern] template __global__ void k<256>(...);"? It names a
   kernel and calls nothing. */
static bool
in_explicit_instantiation(int i)
{
	int j = i;

	while (j > 0 && !tok_is(j - 1, ";") && !tok_is(j - 1, "{") && !tok_is(j - 1, "}") &&
	       toks[j - 1].seg == toks[i].seg)
		j--;
	if (ident_is(j, "extern"))
		j++;
	return ident_is(j, "template") && !tok_is(j + 1, "<");
}

/*
 * nvcc refuses a __global__ function called without <<<>>>: say so here too,
 * rather than let g++ run the kernel once on the host.
 */
void
check_unconfigured_calls(void)
{
	int names[256], n = 0;

	is_kernel_decl = calloc((size_t)ntoks + 1, sizeof(*is_kernel_decl));
	if (!is_kernel_decl)
		return;
	for (int i = 0; i < ntoks && n < 256; i++)
		if (ident_is(i, "__global__") && !toks[i].seg) {
			int name = kernel_decl_name(i);

			if (name >= 0) {
				is_kernel_decl[name] = true;
				names[n++] = name;
			}
		}
	for (int i = 0; i < ntoks; i++) {
		int after = i + 1;

		if (toks[i].kind != LEX_IDENT || is_kernel_decl[i] || toks[i].seg)
			continue;
		if (tok_is(i - 1, ".") || tok_is(i - 1, "->") || tok_is(i - 1, "&") || triple(after, '<'))
			continue;
		if (tok_is(after, "<")) {
			int depth = 0;

			for (; after < ntoks && !tok_is(after, ";"); after++) {
				depth += tok_is(after, "<") - tok_is(after, ">");
				if (depth == 0)
					break;
			}
			if (triple(after + 1, '<'))
				continue;	/* k<T><<<...>>> */
			after++;
		}
		if (!tok_is(after, "(") || in_explicit_instantiation(i))
			continue;
		for (int k = 0; k < n; k++)
			if (same_text(i, names[k]))
				fail(toks[i].line, "'%.*s' is a __global__ function: call it with a launch "
				     "configuration, %.*s<<<grid, block>>>(...)",
				     (int)(toks[i].end - toks[i].start), src + toks[i].start,
				     (int)(toks[i].end - toks[i].start), src + toks[i].start);
	}
}

/*
 * Without nvcc's front end (no CUDA toolkit here), the two errors g++ would
 * let through because it does not know __host__ from __device__: a kernel or
 * __device__ function calling a function this file defines for the host
 * only, and <<<>>> on a function that is not __global__. Only names this file
 * defines are judged: a name from elsewhere, or overloaded for both sides,
 * is left to the compiler.
 */
enum side { SIDE_HOST, SIDE_DEVICE, SIDE_BOTH, SIDE_GLOBAL };

struct definition {
	int name;		/* token of the function's name */
	int body, end;		/* its braces */
	enum side side;
};

/* The definition whose name is at token i (an identifier before '('), or false. */
static bool
definition_at(int i, struct definition *d)
{
	int close = match_forward(i + 1), j;
	bool host = false, device = false, global = false;

	if (close < 0)
		return false;
	/* const, noexcept, attributes, a trailing return type: then the body */
	for (j = close + 1; j < ntoks && toks[j].seg == toks[i].seg; j++) {
		if (tok_is(j, "{"))
			break;
		if (tok_is(j, ";") || tok_is(j, "=") || tok_is(j, ",") || tok_is(j, ")") ||
		    (tok_is(j, ":") && !tok_is(j + 1, ":") && !tok_is(j - 1, ":")))
			return false;
		if (tok_is(j, "(")) {
			int c = match_forward(j);

			if (c < 0)
				return false;
			j = c;
		}
	}
	if (j >= ntoks || !tok_is(j, "{"))
		return false;
	for (int k = i - 1; k >= 0 && toks[k].seg == toks[i].seg && !tok_is(k, ";") && !tok_is(k, "}") &&
			    !tok_is(k, "{"); k--) {
		host |= ident_is(k, "__host__");
		device |= ident_is(k, "__device__");
		global |= ident_is(k, "__global__");
	}
	d->name = i;
	d->body = j;
	d->end = match_forward(j);
	d->side = global ? SIDE_GLOBAL : device && host ? SIDE_BOTH : device ? SIDE_DEVICE : SIDE_HOST;
	return d->end > j;
}

/* Whether the identifier at i names a function this file defines for the host only. */
static bool
host_only(int i, const struct definition *defs, int n)
{
	bool host = false;

	for (int k = 0; k < n; k++)
		if (same_text(i, defs[k].name)) {
			if (defs[k].side != SIDE_HOST)
				return false;	/* overloaded for the device too: the compiler picks */
			host = true;
		}
	return host;
}

/*
 * Whether the function named at token `name` is the host's beyond doubt: what
 * comes before its name is made only of words that cannot hide __device__ (a
 * macro such as "#define HD __host__ __device__" would be an identifier of
 * another kind), and it is not constexpr (which must stay constant).
 */
static bool
surely_host(int name)
{
	static const char *const words[] = {
		"static", "inline", "extern", "void", "bool", "char", "short", "int", "long", "unsigned",
		"signed", "float", "double", "size_t", "const", "volatile", "auto", "template", "typename",
		"class", "__host__", "noexcept",
	};
	for (int j = name - 1; j >= 0 && !toks[j].seg && !tok_is(j, ";") && !tok_is(j, "}") && !tok_is(j, "{"); j--) {
		bool known = false;

		if (toks[j].kind == LEX_STRING || tok_is(j, "*") || tok_is(j, "&") || tok_is(j, "<") || tok_is(j, ">") ||
		    tok_is(j, ",") || tok_is(j, ":") || tok_is(j, "="))
			continue;
		if (toks[j].kind != LEX_IDENT)
			return false;
		for (size_t w = 0; w < sizeof(words) / sizeof(*words) && !known; w++)
			known = ident_is(j, words[w]);
		if (!known && !tok_is(j + 1, ",") && !tok_is(j + 1, ">"))
			return false;	/* but a template's parameter names itself before ',' or '>' */
	}
	return true;
}

/* Does another kernel of this file, defined or declared, have the name of kernel k of defs? */
static bool
overloaded(const struct definition *defs, int n, int k)
{
	for (int o = 0; o < n; o++)
		if (o != k && same_text(defs[o].name, defs[k].name))
			return true;
	for (int i = 0; is_kernel_decl && i < ntoks; i++)
		if (is_kernel_decl[i] && i != defs[k].name && same_text(i, defs[k].name))
			return true;
	return false;
}

void
check_host_device_calls(void)
{
	struct definition *defs = calloc((size_t)ntoks + 1, sizeof(*defs));
	int n = 0;

	if (!defs)
		return;
	/* the definitions, skipping over bodies (their lambdas and locals are no definitions) */
	for (int i = 0; i + 1 < ntoks; i++) {
		if (toks[i].seg || toks[i].kind != LEX_IDENT || !tok_is(i + 1, "(") || tok_is(i - 1, ".") ||
		    tok_is(i - 1, "->") || ident_is(i, "if") || ident_is(i, "for") || ident_is(i, "while") ||
		    ident_is(i, "switch") || ident_is(i, "return") || ident_is(i, "sizeof") ||
		    ident_is(i, "__launch_bounds__") || ident_is(i, "__attribute__") || ident_is(i, "alignas") ||
		    ident_is(i, "__align__") || ident_is(i, "decltype") || skip_attribute(i) != i)
			continue;
		if (definition_at(i, &defs[n]))
			i = defs[n++].end;
	}
	for (int k = 0; k < n; k++) {
		if (defs[k].side != SIDE_GLOBAL && defs[k].side != SIDE_DEVICE)
			continue;
		for (int i = defs[k].body + 1; i < defs[k].end; i++) {
			int after = i + 1;

			if (toks[i].seg || toks[i].kind != LEX_IDENT || tok_is(i - 1, ".") || tok_is(i - 1, "->") ||
			    tok_is(i - 1, ":"))
				continue;
			if (tok_is(after, "<") && !triple(after, '<')) {
				int depth = 0;

				for (; after < defs[k].end && !tok_is(after, ";"); after++) {
					depth += tok_is(after, "<") - tok_is(after, ">");
					if (depth == 0)
						break;
				}
				after++;
			}
			if (tok_is(after, "(") && host_only(i, defs, n))
				fail(toks[i].line, "calling a __host__ function ('%.*s') from a %s function is not "
				     "allowed: mark it __device__ (or __host__ __device__) to use it in device code",
				     (int)(toks[i].end - toks[i].start), src + toks[i].start,
				     defs[k].side == SIDE_GLOBAL ? "__global__" : "__device__");
		}
	}
	/*
	 * A host function's first statement tells the simulator that host code runs: kernel code that
	 * gets there (through a function pointer, which nvcc cannot see) has left the GPU, where a
	 * host function does not exist.
	 */
	for (int k = 0; k < n; k++)
		if (defs[k].side == SIDE_HOST && surely_host(defs[k].name))
			add_edit(toks[defs[k].body].end, toks[defs[k].body].end,
				 xstrdup(" ::cudasim_host_function(__func__);"));
	/* a kernel's __launch_bounds__ (bounds.c) */
	for (int k = 0; k < n; k++)
		if (defs[k].side == SIDE_GLOBAL)
			rewrite_launch_bounds(defs[k].name, defs[k].body, overloaded(defs, n, k));
	/* <<<>>> on a name this file defines, but not as a kernel */
	for (int i = 1; i < ntoks; i++) {
		if (!triple(i, '<') || toks[i].seg)
			continue;
		int name = i - 1;

		if (tok_is(name, ">")) {
			int open = match_backward(name, '<', '>');

			name = open > 0 ? open - 1 : -1;
		}
		if (name >= 0 && toks[name].kind == LEX_IDENT && !tok_is(name - 1, ".") && !tok_is(name - 1, "->") &&
		    host_only(name, defs, n))
			fail(toks[name].line, "'%.*s' is a __host__ function, not a __global__ one: it cannot be "
			     "configured with <<<>>>; only a kernel is launched",
			     (int)(toks[name].end - toks[name].start), src + toks[name].start);
	}
	free(defs);
}
