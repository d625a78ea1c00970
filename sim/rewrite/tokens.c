/*
 * tokens.c — the rewriter's view of the source: its tokens (lib/lex.c's, the
 * project's one C++ lexer: each preprocessor directive a segment of its
 * own), the predicates the passes ask of them, and the brackets that match.
 */
#include "sim/rewrite/rewrite.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lex.h"
#include "lib/util.h"

/* ---------------------------------------------------------------- strings */

/* The source between two offsets. */
void
buf_src(struct buf *b, size_t from, size_t to)
{
	if (to > from)
		buf_add(b, src + from, to - from);
}

int
newlines(size_t from, size_t to)
{
	int n = 0;

	for (size_t i = from; i < to; i++)
		n += src[i] == '\n';
	return n;
}

/* ---------------------------------------------------------------- tokens */

bool
same_text(int a, int b)
{
	return toks[a].end - toks[a].start == toks[b].end - toks[b].start &&
	       !memcmp(src + toks[a].start, src + toks[b].start, toks[a].end - toks[a].start);
}

bool
tok_is(int i, const char *s)
{
	size_t n = strlen(s);

	return i >= 0 && i < ntoks && toks[i].end - toks[i].start == n &&
	       !memcmp(src + toks[i].start, s, n);
}

bool
ident_is(int i, const char *s)
{
	return i >= 0 && i < ntoks && toks[i].kind == LEX_IDENT && tok_is(i, s);
}

static struct lex lexed;

void
tokenize(void)
{
	if (lex_source(&lexed, src, src_len))
		fail(lexed.error_line, "%s", lexed.error);
	toks = lexed.tok;
	ntoks = lexed.n;
}

/* The index of the bracket that closes the one at i, or -1. */
int
match_forward(int i)
{
	const char *open = "([{", *close = ")]}";
	int depth = 0;

	for (int j = i; j < ntoks && toks[j].seg == toks[i].seg; j++) {
		if (toks[j].kind != LEX_PUNCT || toks[j].end - toks[j].start != 1)
			continue;
		if (strchr(open, src[toks[j].start]))
			depth++;
		else if (strchr(close, src[toks[j].start]) && --depth == 0)
			return j;
	}
	return -1;
}

int
match_backward(int i, char open, char close)
{
	int depth = 0;

	for (int j = i; j >= 0 && toks[j].seg == toks[i].seg; j--) {
		/* a template argument in parentheses may hold a comparison: k<(N > 2)> */
		if (open == '<' && j < i && tok_is(j, ")")) {
			if ((j = match_backward(j, '(', ')')) < 0)
				return -1;
			continue;
		}
		if (open == '<' && tok_is(j, "<") && tok_is(j - 1, "<") &&
		    toks[j - 1].end == toks[j].start) {
			j--;		/* a shift inside template arguments: 1 << 2 */
			continue;
		}
		if (tok_is(j, (char[]){ close, 0 }))
			depth++;
		else if (tok_is(j, (char[]){ open, 0 }) && --depth == 0)
			return j;
		else if (open == '<' && (tok_is(j, ";") || tok_is(j, "{") || tok_is(j, "}")))
			return -1;
	}
	return -1;
}

/* Three tokens c, c, c with nothing between them: "<<<" or ">>>". */
bool
triple(int i, char c)
{
	char s[2] = { c, 0 };

	return i + 2 < ntoks && tok_is(i, s) && tok_is(i + 1, s) && tok_is(i + 2, s) &&
	       toks[i].end == toks[i + 1].start && toks[i + 1].end == toks[i + 2].start &&
	       toks[i].seg == toks[i + 2].seg;
}

/* Skip "__align__(...)", "alignas(...)", "__attribute__((...))" and nvcc's register hints ("__maxnreg__(64)") at
   j; returns the next index. */
int
skip_attribute(int j)
{
	if ((ident_is(j, "__align__") || ident_is(j, "alignas") || ident_is(j, "__attribute__") ||
	     ident_is(j, "__declspec") || ident_is(j, "__maxnreg__") || ident_is(j, "__local_maxnreg__") ||
	     ident_is(j, "__builtin_align__")) && tok_is(j + 1, "(")) {
		int c = match_forward(j + 1);

		return c < 0 ? j + 1 : c + 1;
	}
	return j;
}
