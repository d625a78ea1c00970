/*
 * tokens.c — the rewriter's view of the source: the tokens (comments,
 * strings, raw strings, character literals and digit separators understood,
 * each preprocessor directive a segment of its own), the predicates the passes
 * ask of them, and the brackets that match.
 */
#include "sim/rewrite/rewrite.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

static int cap_toks;

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
tok_is(int i, const char *s)
{
	size_t n = strlen(s);

	return i >= 0 && i < ntoks && toks[i].end - toks[i].start == n &&
	       !memcmp(src + toks[i].start, s, n);
}

bool
ident_is(int i, const char *s)
{
	return i >= 0 && i < ntoks && toks[i].kind == K_IDENT && tok_is(i, s);
}

static void
push_tok(enum kind kind, size_t start, size_t end, int line, int seg)
{
	if (ntoks == cap_toks) {
		cap_toks = cap_toks ? cap_toks * 2 : 4096;
		toks = xrealloc(toks, cap_toks * sizeof(*toks));
	}
	toks[ntoks++] = (struct tok){ kind, start, end, line, seg };
}

bool
ident_char(int c)
{
	return isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

/*
 * A quoted literal from the opening quote; returns the offset after it, or
 * 0 when it does not end on its line (an apostrophe in "#error don't" or in
 * an #if 0 block): g++ judges those, so the quote is left as it is.
 */
static size_t
scan_quoted(size_t i, int *line)
{
	char q = src[i];
	int lines = 0;

	for (i++; i < src_len; i++) {
		if (src[i] == '\\' && i + 1 < src_len) {
			if (src[i + 1] == '\n')
				lines++;
			i++;
		} else if (src[i] == q) {
			*line += lines;
			return i + 1;
		} else if (src[i] == '\n') {
			return 0;
		}
	}
	return 0;
}

/* R"delim( ... )delim" from the opening quote. */
static size_t
scan_raw(size_t i, int *line)
{
	char delim[20], close[24];
	size_t d = 0, n;
	int start_line = *line;
	char *end;

	for (i++; i < src_len && src[i] != '(' && d < 16; i++)
		delim[d++] = src[i];
	if (i >= src_len || src[i] != '(')
		fail(start_line, "invalid raw string delimiter");
	delim[d] = '\0';
	n = (size_t)snprintf(close, sizeof(close), ")%s\"", delim);
	end = memmem(src + i, src_len - i, close, n);
	if (!end)
		fail(start_line, "unterminated raw string");
	*line += newlines(i, (size_t)(end - src));
	return (size_t)(end - src) + n;
}

void
tokenize(void)
{
	size_t i = 0;
	int line = 1, seg = 0, ndirectives = 0;
	bool line_start = true;

	while (i < src_len) {
		char c = src[i];

		if (c == '\n') {
			line++;
			i++;
			line_start = true;
			seg = 0;
			continue;
		}
		if (c == '\\' && i + 1 < src_len && src[i + 1] == '\n') {
			line++;
			i += 2;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			i++;
			continue;
		}
		if (c == '/' && i + 1 < src_len && src[i + 1] == '/') {
			while (i < src_len && src[i] != '\n') {
				if (src[i] == '\\' && i + 1 < src_len && src[i + 1] == '\n')
					line++, i++;
				i++;
			}
			continue;
		}
		if (c == '/' && i + 1 < src_len && src[i + 1] == '*') {
			char *end = memmem(src + i + 2, src_len - i - 2, "*/", 2);

			if (!end)
				fail(line, "unterminated comment");
			line += newlines(i, (size_t)(end - src));
			i = (size_t)(end - src) + 2;
			continue;
		}
		if (c == '#' && line_start) {
			seg = ++ndirectives;
			push_tok(K_PUNCT, i, i + 1, line, seg);
			i++;
			line_start = false;
			continue;
		}
		line_start = false;
		if (isdigit((unsigned char)c) || (c == '.' && i + 1 < src_len && isdigit((unsigned char)src[i + 1]))) {
			size_t s = i++;

			while (i < src_len) {
				if ((src[i] == '+' || src[i] == '-') && strchr("eEpP", src[i - 1]))
					i++;
				else if (src[i] == '\'' && i + 1 < src_len && ident_char((unsigned char)src[i + 1]))
					i += 2;
				else if (ident_char((unsigned char)src[i]) || src[i] == '.')
					i++;
				else
					break;
			}
			push_tok(K_NUMBER, s, i, line, seg);
			continue;
		}
		if (ident_char((unsigned char)c)) {
			size_t s = i, e;
			int l = line;

			while (i < src_len && ident_char((unsigned char)src[i]))
				i++;
			if (i < src_len && src[i] == '"') {
				size_t n = i - s;

				if (src[i - 1] == 'R' && (n == 1 || (n == 2 && strchr("uUL", src[s])) ||
							  (n == 3 && !memcmp(src + s, "u8", 2)))) {
					i = scan_raw(i, &line);
					push_tok(K_STRING, s, i, l, seg);
					continue;
				}
				if (n <= 2 && (!memcmp(src + s, "u8", n) || strchr("uUL", src[s])) &&
				    (e = scan_quoted(i, &line))) {
					i = e;
					push_tok(K_STRING, s, i, l, seg);
					continue;
				}
			}
			if (i < src_len && src[i] == '\'' && i - s <= 2 &&
			    (!memcmp(src + s, "u8", i - s) || strchr("uUL", src[s])) &&
			    (e = scan_quoted(i, &line))) {
				i = e;
				push_tok(K_CHAR, s, i, l, seg);
				continue;
			}
			push_tok(K_IDENT, s, i, l, seg);
			continue;
		}
		if (c == '"' || c == '\'') {
			size_t s = i, e = scan_quoted(i, &line);

			if (e) {
				push_tok(c == '"' ? K_STRING : K_CHAR, s, e, line, seg);
				i = e;
				continue;
			}
		}
		if (c == '<' && seg && ntoks >= 2 && ident_is(ntoks - 1, "include") && tok_is(ntoks - 2, "#")) {
			size_t s = i;

			while (i < src_len && src[i] != '>' && src[i] != '\n')
				i++;
			push_tok(K_STRING, s, i + (i < src_len && src[i] == '>'), line, seg);
			i += i < src_len && src[i] == '>';
			continue;
		}
		if (c == ':' && i + 1 < src_len && src[i + 1] == ':') {
			push_tok(K_PUNCT, i, i + 2, line, seg);
			i += 2;
			continue;
		}
		if (c == '-' && i + 1 < src_len && src[i + 1] == '>') {
			push_tok(K_PUNCT, i, i + 2, line, seg);
			i += 2;
			continue;
		}
		push_tok(K_PUNCT, i, i + 1, line, seg);
		i++;
	}
}

/* The index of the bracket that closes the one at i, or -1. */
int
match_forward(int i)
{
	const char *open = "([{", *close = ")]}";
	int depth = 0;

	for (int j = i; j < ntoks && toks[j].seg == toks[i].seg; j++) {
		if (toks[j].kind != K_PUNCT || toks[j].end - toks[j].start != 1)
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

/* Skip "__align__(...)", "alignas(...)", "__attribute__((...))" at j; returns the next index. */
int
skip_attribute(int j)
{
	if ((ident_is(j, "__align__") || ident_is(j, "alignas") || ident_is(j, "__attribute__") ||
	     ident_is(j, "__declspec")) && tok_is(j + 1, "(")) {
		int c = match_forward(j + 1);

		return c < 0 ? j + 1 : c + 1;
	}
	return j;
}
