/*
 * main.c — cudasim-rewrite: turn a CUDA C .cu file into C++ that g++ compiles
 * against include/cudasim.h.
 *
 *   cudasim-rewrite IN.cu OUT.cpp
 *
 * Exit 0, or 1 with "IN.cu:LINE: message" on stderr for input it cannot
 * rewrite. What changes (everything else is copied byte for byte, and every
 * line stays on its own line, so with the leading #line every compiler error
 * and every fault points at the original file's line numbers):
 *
 *   k<<<g, b, s, st>>>(args)   ::cudasim::launch([&](auto &&...a) { k(a...); },
 *                               "k", __FILE__, __LINE__)(g, b, s, st)(args)
 *   extern __shared__ T x[];   T *const x = (T *)cudasim_dyn_smem;
 *   __shared__ T x[N];         T (&x)[N] = a slot of the static shared arena, which
 *                              the first thread of each block poisons
 *   __device__ T v;            (namespace scope) kept in the section that the
 *                              order check snapshots
 *   #include "h"               the path made absolute when h sits beside IN.cu,
 *                              since g++ looks beside OUT.cpp instead
 *
 * The input is tokenized (comments, strings, raw strings, character
 * literals and digit separators understood), so "<<<" in a string, a
 * comment or a shift like a<<b>>c is left alone.
 *
 * This file is the driver: it reads the input, runs the passes over its
 * tokens (tokens.c), keeps the scopes they ask about, and writes the source
 * with their edits made. The passes: launch.c, decls.c, include.c, calls.c.
 */
#include "sim/rewrite/rewrite.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

const char *in_path;
char *in_dir, *out_path;
char *src;
size_t src_len;
struct lex_token *toks;
int ntoks;
static struct edit *edits;
static int nedits, cap_edits;

void
fail(int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: ", in_path, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* ---------------------------------------------------------------- edits */

void
add_edit(size_t start, size_t end, char *text)
{
	if (nedits == cap_edits) {
		cap_edits = cap_edits ? cap_edits * 2 : 64;
		edits = xrealloc(edits, cap_edits * sizeof(*edits));
	}
	edits[nedits++] = (struct edit){ start, end, text };
}

/* Pad a replacement with the newlines of the text it replaces, so lines stay put. */
char *
keep_lines(struct buf *b, size_t start, size_t end)
{
	int n = newlines(start, end);
	int have = 0;

	for (size_t i = 0; i < b->len; i++)
		have += b->data[i] == '\n';
	for (; have < n; have++)
		buf_addstr(b, "\n");
	return buf_detach(b);
}

/* ---------------------------------------------------------------- scopes */

enum scope { S_NAMESPACE, S_CLASS, S_OTHER };

static enum scope *scopes;
static int nscopes, cap_scopes;

static enum scope
brace_kind(int i)
{
	int j = i - 1;

	if (j >= 0 && toks[j].kind == LEX_STRING && ident_is(j - 1, "extern"))
		return S_NAMESPACE;
	while (j >= 0 && (toks[j].kind == LEX_IDENT || tok_is(j, "::"))) {
		if (ident_is(j, "namespace"))
			return S_NAMESPACE;
		j--;
	}
	for (j = i - 1; j >= 0 && !tok_is(j, ";") && !tok_is(j, "{") && !tok_is(j, "}") &&
	     !tok_is(j, ")") && !tok_is(j, "="); j--)
		if (ident_is(j, "struct") || ident_is(j, "class") || ident_is(j, "union") ||
		    ident_is(j, "enum"))
			return S_CLASS;
	return S_OTHER;
}

bool
at_namespace_scope(void)
{
	for (int i = 0; i < nscopes; i++)
		if (scopes[i] != S_NAMESPACE)
			return false;
	return true;
}


static void
rewrite(void)
{
	int i = 0;

	while (i < ntoks) {
		if (toks[i].seg && tok_is(i, "#") && (i == 0 || toks[i - 1].seg != toks[i].seg)) {
			rewrite_include(i);
			rewrite_pragma(i);
			i++;
			continue;
		}
		if (tok_is(i, "{")) {
			if (nscopes == cap_scopes) {
				cap_scopes = cap_scopes ? cap_scopes * 2 : 64;
				scopes = xrealloc(scopes, cap_scopes * sizeof(*scopes));
			}
			scopes[nscopes++] = toks[i].seg ? S_OTHER : brace_kind(i);
			i++;
			continue;
		}
		if (tok_is(i, "}")) {
			if (nscopes > 0)
				nscopes--;
			i++;
			continue;
		}
		if (triple(i, '<') && !(i > 0 && ident_is(i - 1, "operator"))) {
			i = rewrite_launch(i);
			continue;
		}
		if (ident_is(i, "__shared__")) {
			i = rewrite_shared(i);
			continue;
		}
		if ((ident_is(i, "cudaLaunchCooperativeKernel") || ident_is(i, "cudaLaunchKernel") ||
		     ident_is(i, "cudaLaunchKernelEx") || ident_is(i, "cudaLaunchKernelExC")) && tok_is(i + 1, "(") &&
		    !tok_is(i - 1, "::")) {
			i = rewrite_launch_call(i);
			continue;
		}
		/* __managed__ is left to cudasim.h, which refuses it */
		if (ident_is(i, "__device__") || ident_is(i, "__constant__"))
			rewrite_device_var(i);
		else if (ident_is(i, "__noinline__"))
			rewrite_noinline(i);
		i++;
	}
}

static int
edit_cmp(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

int
main(int argc, char **argv)
{
	FILE *out;
	size_t at = 0;
	char dir[PATH_MAX], *slash;

	error_set_program("cudasim-rewrite");
	if (argc != 3) {
		fprintf(stderr, "usage: cudasim-rewrite IN.cu OUT.cpp\n");
		return 2;
	}
	in_path = argv[1];
	out_path = argv[2];
	src = read_file(in_path, &src_len);
	if (!src) {
		error("cannot read '%s': %s", in_path, strerror(errno));
		return 1;
	}
	/* a UTF-8 byte-order mark: nvcc skips it, g++ only where it opens the file, not after our #line */
	if (src_len >= 3 && !memcmp(src, "\xef\xbb\xbf", 3)) {
		src_len -= 3;
		memmove(src, src + 3, src_len + 1);
	}
	snprintf(dir, sizeof(dir), "%s", in_path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	in_dir = realpath(dir, NULL);
	if (!in_dir)
		in_dir = xstrdup(dir);

	tokenize();
	check_uninstrumented();
	check_unconfigured_calls();
	check_host_device_calls();
	rewrite();
	qsort(edits, nedits, sizeof(*edits), edit_cmp);

	out = fopen(argv[2], "w");
	if (!out) {
		error("cannot write '%s': %s", argv[2], strerror(errno));
		return 1;
	}
	fputs("#line 1 \"", out);
	for (const char *p = in_path; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', out);
		fputc(*p, out);
	}
	fputs("\"\n", out);
	for (int i = 0; i < nedits; i++) {
		if (edits[i].start < at)
			continue;	/* inside an edit already made */
		fwrite(src + at, 1, edits[i].start - at, out);
		fputs(edits[i].text, out);
		at = edits[i].end;
	}
	fwrite(src + at, 1, src_len - at, out);
	if (fclose(out)) {
		error("cannot write '%s': %s", argv[2], strerror(errno));
		return 1;
	}
	return 0;
}
