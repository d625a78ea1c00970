/*
 * lex.c — C++ source as tokens (see lex.h): one pass over the bytes, the
 * only state a line count, the directive being read and whether a line has
 * only begun.
 */
#include "lib/lex.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

static void
push(struct lex *L, enum lex_kind kind, size_t start, size_t end, int line, int seg)
{
	if (L->n == L->cap) {
		L->cap = L->cap ? L->cap * 2 : 4096;
		L->tok = xrealloc(L->tok, L->cap * sizeof(*L->tok));
	}
	L->tok[L->n++] = (struct lex_token){ kind, start, end, line, seg };
}

static int
newlines(const struct lex *L, size_t from, size_t to)
{
	int n = 0;

	for (size_t i = from; i < to; i++)
		n += L->src[i] == '\n';
	return n;
}

bool
lex_ident_char(int c)
{
	return isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

bool
lex_is(const struct lex *L, int i, const char *s)
{
	size_t n = strlen(s);

	return i >= 0 && i < L->n && L->tok[i].end - L->tok[i].start == n && !memcmp(L->src + L->tok[i].start, s, n);
}

/*
 * A quoted literal from the opening quote; returns the offset after it, or
 * 0 when it does not end on its line (an apostrophe in "#error don't" or in
 * an #if 0 block): the compiler judges those, so the quote is left as it is.
 */
static size_t
scan_quoted(const struct lex *L, size_t i, int *line)
{
	const char *src = L->src;
	char q = src[i];
	int lines = 0;

	for (i++; i < L->len; i++) {
		if (src[i] == '\\' && i + 1 < L->len) {
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

/* R"delim( ... )delim" from the opening quote; 0 with L->error set when it never ends. */
static size_t
scan_raw(struct lex *L, size_t i, int *line)
{
	const char *src = L->src;
	char delim[20], close[24];
	size_t d = 0, n;
	const char *end;

	for (i++; i < L->len && src[i] != '(' && d < 16; i++)
		delim[d++] = src[i];
	if (i >= L->len || src[i] != '(') {
		L->error = "invalid raw string delimiter";
		L->error_line = *line;
		return 0;
	}
	delim[d] = '\0';
	n = (size_t)snprintf(close, sizeof(close), ")%s\"", delim);
	end = memmem(src + i, L->len - i, close, n);
	if (!end) {
		L->error = "unterminated raw string";
		L->error_line = *line;
		return 0;
	}
	*line += newlines(L, i, (size_t)(end - src));
	return (size_t)(end - src) + n;
}

int
lex_source(struct lex *L, const char *src, size_t len)
{
	size_t i = 0, e;
	int line = 1, seg = 0, ndirectives = 0;
	bool line_start = true;

	*L = (struct lex){ .src = src, .len = len };
	while (i < len) {
		char c = src[i];

		if (c == '\n') {
			line++;
			i++;
			line_start = true;
			seg = 0;
			continue;
		}
		if (c == '\\' && i + 1 < len && src[i + 1] == '\n') {
			line++;
			i += 2;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			i++;
			continue;
		}
		if (c == '/' && i + 1 < len && src[i + 1] == '/') {
			while (i < len && src[i] != '\n') {
				if (src[i] == '\\' && i + 1 < len && src[i + 1] == '\n')
					line++, i++;
				i++;
			}
			continue;
		}
		if (c == '/' && i + 1 < len && src[i + 1] == '*') {
			const char *end = memmem(src + i + 2, len - i - 2, "*/", 2);

			if (!end) {
				L->error = "unterminated comment";
				L->error_line = line;
				return -1;
			}
			line += newlines(L, i, (size_t)(end - src));
			i = (size_t)(end - src) + 2;
			continue;
		}
		if (c == '#' && line_start) {
			seg = ++ndirectives;
			push(L, LEX_PUNCT, i, i + 1, line, seg);
			i++;
			line_start = false;
			continue;
		}
		line_start = false;
		if (isdigit((unsigned char)c) || (c == '.' && i + 1 < len && isdigit((unsigned char)src[i + 1]))) {
			size_t s = i++;

			while (i < len) {
				if ((src[i] == '+' || src[i] == '-') && strchr("eEpP", src[i - 1]))
					i++;
				else if (src[i] == '\'' && i + 1 < len && lex_ident_char((unsigned char)src[i + 1]))
					i += 2;
				else if (lex_ident_char((unsigned char)src[i]) || src[i] == '.')
					i++;
				else
					break;
			}
			push(L, LEX_NUMBER, s, i, line, seg);
			continue;
		}
		if (lex_ident_char((unsigned char)c)) {
			size_t s = i;
			int l = line;

			while (i < len && lex_ident_char((unsigned char)src[i]))
				i++;
			if (i < len && src[i] == '"') {
				size_t n = i - s;

				if (src[i - 1] == 'R' && (n == 1 || (n == 2 && strchr("uUL", src[s])) ||
							  (n == 3 && !memcmp(src + s, "u8", 2)))) {
					if (!(i = scan_raw(L, i, &line)))
						return -1;
					push(L, LEX_STRING, s, i, l, seg);
					continue;
				}
				if (n <= 2 && (!memcmp(src + s, "u8", n) || strchr("uUL", src[s])) &&
				    (e = scan_quoted(L, i, &line))) {
					i = e;
					push(L, LEX_STRING, s, i, l, seg);
					continue;
				}
			}
			if (i < len && src[i] == '\'' && i - s <= 2 &&
			    (!memcmp(src + s, "u8", i - s) || strchr("uUL", src[s])) &&
			    (e = scan_quoted(L, i, &line))) {
				i = e;
				push(L, LEX_CHAR, s, i, l, seg);
				continue;
			}
			push(L, LEX_IDENT, s, i, l, seg);
			continue;
		}
		if (c == '"' || c == '\'') {
			size_t s = i;

			if ((e = scan_quoted(L, i, &line))) {
				push(L, c == '"' ? LEX_STRING : LEX_CHAR, s, e, line, seg);
				i = e;
				continue;
			}
		}
		if (c == '<' && seg && L->n >= 2 && L->tok[L->n - 1].kind == LEX_IDENT && lex_is(L, L->n - 1, "include") &&
		    lex_is(L, L->n - 2, "#")) {
			size_t s = i;

			while (i < len && src[i] != '>' && src[i] != '\n')
				i++;
			push(L, LEX_STRING, s, i + (i < len && src[i] == '>'), line, seg);
			i += i < len && src[i] == '>';
			continue;
		}
		if ((c == ':' && i + 1 < len && src[i + 1] == ':') || (c == '-' && i + 1 < len && src[i + 1] == '>')) {
			push(L, LEX_PUNCT, i, i + 2, line, seg);
			i += 2;
			continue;
		}
		push(L, LEX_PUNCT, i, i + 1, line, seg);
		i++;
	}
	return 0;
}

void
lex_free(struct lex *L)
{
	free(L->tok);
	*L = (struct lex){ 0 };
}
