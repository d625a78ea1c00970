/*
 * include.c — the rewriter's directives: a header beside the .cu included by
 * its absolute path (rewritten first, by this program run again, where it
 * holds what only the rewriter makes compile), and nvcc's #pragma unroll as
 * GCC's.
 */
#include "sim/rewrite/rewrite.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/run.h"
#include "lib/util.h"

static int nheaders;

/* Whether a header holds what only the rewriter makes compile or behave. */
static bool
header_needs_rewrite(const char *path)
{
	size_t len;
	char *text = read_file(path, &len);
	bool needs;

	if (!text)
		return false;
	needs = strstr(text, "<<<") || strstr(text, "__shared__") || strstr(text, "__device__") ||
		strstr(text, "__managed__") || strstr(text, "__constant__") || strstr(text, "__noinline__") ||
		strstr(text, "sanitize") || strstr(text, "CUDASIM_UNCHECKED");
	free(text);
	return needs;
}

/*
 * A header beside the .cu with launches or __shared__ in it is rewritten too,
 * by this program run again, into OUT.cpp.N.h (its #line names the header).
 * Returns the path to include instead, or NULL to include the header as is.
 */
static char *
rewrite_header(const char *path, int line)
{
	char hdr[PATH_MAX + 32], *abs_hdr;
	struct child c = { .label = "cudasim-rewrite" };
	struct spawn_options o = { .clean_on_exit = true };

	if (!header_needs_rewrite(path))
		return NULL;
	snprintf(hdr, sizeof(hdr), "%s.%d.h", out_path, ++nheaders);
	char *argv[] = { "/proc/self/exe", (char *)path, hdr, NULL };
	if (child_spawn(&c, argv, &o))
		fail(line, "cannot rewrite the header '%s'", path);
	int code = child_wait(&c);
	child_release(&c);
	if (code < 0 || code >= 128)
		fail(line, "cannot rewrite the header '%s'", path);
	if (code)
		exit(1);	/* the header's own "file:line: message" is out already */
	abs_hdr = realpath(hdr, NULL);
	return abs_hdr ? abs_hdr : xstrdup(hdr);
}

/* nvcc's "#pragma unroll [N]" is GCC's "#pragma GCC unroll N" (g++ -Wall
 * would warn about an unknown pragma). */
void
rewrite_pragma(int hash)
{
	int u = hash + 2;
	struct buf b = BUF_INIT;

	if (!ident_is(hash + 1, "pragma") || !ident_is(u, "unroll") || toks[u].seg != toks[hash].seg)
		return;
	if (u + 1 < ntoks && toks[u + 1].seg == toks[hash].seg && toks[u + 1].kind == LEX_NUMBER) {
		add_edit(toks[u].start, toks[u].end, xstrdup("GCC unroll"));
		return;
	}
	/* unroll with no count, or a count that is a name or an expression (a template's parameter, a
	   constexpr): an unrolling hint changes no result, so GCC's is given a count of its own and the
	   expression goes (GCC would read "8 (N)" as a call) */
	int last = u;
	while (last + 1 < ntoks && toks[last + 1].seg == toks[hash].seg)
		last++;
	buf_addstr(&b, "GCC unroll 8");
	add_edit(toks[u].start, toks[last].end, keep_lines(&b, toks[u].start, toks[last].end));
}

void
rewrite_include(int hash)
{
	int s = hash + 2;
	char rel[PATH_MAX], full[PATH_MAX * 2], *rewritten;
	size_t n;
	struct buf b = BUF_INIT;

	if (!ident_is(hash + 1, "include") || toks[s].kind != LEX_STRING || src[toks[s].start] != '"')
		return;
	n = toks[s].end - toks[s].start - 2;
	if (n == 0 || n >= sizeof(rel) || src[toks[s].start + 1] == '/')
		return;
	memcpy(rel, src + toks[s].start + 1, n);
	rel[n] = '\0';
	snprintf(full, sizeof(full), "%s/%s", in_dir, rel);
	if (access(full, R_OK))
		return;		/* not beside the .cu file: the -I paths find it, as before */
	rewritten = rewrite_header(full, toks[s].line);
	buf_addstr(&b, "\"");
	for (const char *p = rewritten ? rewritten : full; *p; p++) {
		if (*p == '"' || *p == '\\')
			buf_addstr(&b, "\\");
		buf_add(&b, p, 1);
	}
	buf_addstr(&b, "\"");
	add_edit(toks[s].start, toks[s].end, buf_detach(&b));
}
