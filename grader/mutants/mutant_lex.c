/*
 * mutant_lex.c — the source as tokens and the shapes around them (see mutant_lex.h).
 */
#include "grader/mutants/mutant_lex.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* ------------------------------------------------------------ tokens */

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

void
tok_lex(const char *src, struct lexed *L)
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
		if ((c == '(' || c == '[' || c == '{') && depth < (int)(ARRAY_SIZE(stack))) {
			stack[depth++] = i;
		} else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
			int open = stack[--depth];
			L->t[open].match = i;
			L->t[i].match = open;
		}
	}
}

bool
tok_is(const struct lexed *L, int i, const char *text)
{
	return i >= 0 && i < L->n && L->t[i].len == strlen(text) && !strncmp(L->src + L->t[i].at, text, L->t[i].len);
}

bool
tok_ident(const struct lexed *L, int i)
{
	return i >= 0 && i < L->n && L->t[i].kind == TOK_IDENT;
}

/* The source's own text from token first to token last, as written. */
char *
tok_span(const struct lexed *L, int first, int last)
{
	size_t from = L->t[first].at, to = L->t[last].at + L->t[last].len;
	return xasprintf("%.*s", (int)(to - from), L->src + from);
}

bool
tok_same(const struct lexed *L, int a0, int a1, int b0, int b1)
{
	if (a1 - a0 != b1 - b0 || a0 > a1)
		return false;
	for (int k = 0; k <= a1 - a0; k++)
		if (L->t[a0 + k].len != L->t[b0 + k].len ||
		    strncmp(L->src + L->t[a0 + k].at, L->src + L->t[b0 + k].at, L->t[a0 + k].len))
			return false;
	return true;
}

/* ------------------------------------------------------------ where a statement or expression starts */

/* A token after which a statement starts. */
bool
statement_boundary(const struct lexed *L, int i)
{
	return i < 0 || tok_is(L, i, ";") || tok_is(L, i, "{") || tok_is(L, i, "}") || tok_is(L, i, ")") || tok_is(L, i, "else") ||
	       tok_is(L, i, ":");
}

/* Whether a token ends an operand of a comparison or a conditional expression, looking outward. */
bool
expression_edge(const struct lexed *L, int i)
{
	static const char *const edges[] = { ";", ",", "{", "}", "(", "[", "?", ":", "&&", "||", "=", "+=", "-=",
					     "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "return", "!", NULL };
	for (const char *const *e = edges; *e; e++)
		if (tok_is(L, i, *e))
			return true;
	return false;
}

/* The first token of the operand that ends at token `end`, going left over brackets. */
int
operand_start(const struct lexed *L, int end, int floor)
{
	int i = end;
	while (i > floor) {
		if ((tok_is(L, i, ")") || tok_is(L, i, "]")) && L->t[i].match >= 0 && L->t[i].match > floor) {
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
int
condition_start(const struct lexed *L, int end)
{
	int i = end;
	while (i >= 0) {
		if ((tok_is(L, i, ")") || tok_is(L, i, "]")) && L->t[i].match >= 0) {
			i = L->t[i].match - 1;
			continue;
		}
		if (expression_edge(L, i) && !tok_is(L, i, "&&") && !tok_is(L, i, "||") && !tok_is(L, i, "!"))
			break;
		i--;
	}
	return i + 1;
}

/* The last token of the operand that starts at token `start`, going right over brackets. */
int
operand_end(const struct lexed *L, int start, int ceiling)
{
	int i = start;
	while (i < ceiling) {
		if ((tok_is(L, i, "(") || tok_is(L, i, "[")) && L->t[i].match >= 0 && L->t[i].match < ceiling) {
			i = L->t[i].match + 1;
			continue;
		}
		if (expression_edge(L, i) || tok_is(L, i, ")") || tok_is(L, i, "]"))
			break;
		i++;
	}
	return i - 1;
}
