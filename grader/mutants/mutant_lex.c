/*
 * mutant_lex.c — the source as the mutation operators read it, through the
 * project's one C++ lexer (lib/lex.c), and the shapes around its tokens
 * (see mutant_lex.h).
 */
#include "grader/mutants/mutant_lex.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lex.h"
#include "lib/util.h"

/* ------------------------------------------------------------ tokens */

/* The punctuation the operators read as one token, longest first, joined from lib/lex.c's characters where
 * they touch. */
static const char *const puncts[] = {
	"<<<", ">>>", "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::", NULL,
};

/* One character of punctuation of the code, where it is. */
struct punct {
	size_t at;
	int line;
};

static void
push(struct lexed *L, size_t *cap, struct tok t)
{
	if (L->n == (int)*cap) {
		*cap *= 2;
		L->t = xrealloc(L->t, *cap * sizeof(*L->t));
	}
	L->t[L->n++] = t;
}

/* The punctuation characters p[0 .. n) (each touching the next) as tokens, the longest of puncts first. */
static void
push_puncts(struct lexed *L, size_t *cap, const struct punct *p, int n)
{
	for (int i = 0; i < n;) {
		struct tok t = { TOK_PUNCT, p[i].at, 1, p[i].line, -1 };
		for (const char *const *s = puncts; *s; s++) {
			size_t len = strlen(*s);
			if ((int)len <= n - i && !strncmp(L->src + p[i].at, *s, len)) {
				t.len = len;
				break;
			}
		}
		push(L, cap, t);
		i += (int)t.len;
	}
}

/*
 * The code's tokens, read by the project's lexer (lib/lex.c): a preprocessor
 * line's are left out (never rewritten), a character literal is a string,
 * and punctuation is joined as the operators read it. Where a comment never
 * ends, the code ends.
 */
void
mutant_lex(const char *src, struct lexed *L)
{
	struct lex x;
	size_t cap = 256;
	struct punct run[64];
	int nrun = 0;
	int stack[512], depth = 0;

	lex_source(&x, src, strlen(src));
	L->src = src;
	L->t = xmalloc(cap * sizeof(*L->t));
	L->n = 0;
	for (int k = 0; k <= x.n; k++) {
		const struct lex_token *a = k < x.n ? &x.tok[k] : NULL;
		if (a && a->seg)
			continue;
		if (a && a->kind == LEX_PUNCT) {
			if (nrun && (nrun == (int)ARRAY_SIZE(run) || run[nrun - 1].at + 1 != a->start)) {
				push_puncts(L, &cap, run, nrun);
				nrun = 0;
			}
			for (size_t c = a->start; c < a->end; c++)
				run[nrun++] = (struct punct){ c, a->line };
			continue;
		}
		push_puncts(L, &cap, run, nrun);
		nrun = 0;
		if (a)
			push(L, &cap, (struct tok){ a->kind == LEX_IDENT ? TOK_IDENT : a->kind == LEX_NUMBER ? TOK_NUMBER : TOK_STRING,
						   a->start, a->end - a->start, a->line, -1 });
	}
	lex_free(&x);
	for (int i = 0; i < L->n; i++) {
		if (L->t[i].kind != TOK_PUNCT || L->t[i].len != 1)
			continue;
		char c = src[L->t[i].at];
		if ((c == '(' || c == '[' || c == '{') && depth < (int)ARRAY_SIZE(stack)) {
			stack[depth++] = i;
		} else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
			int open = stack[--depth];
			L->t[open].match = i;
			L->t[i].match = open;
		}
	}
}

bool
mutant_lex_is(const struct lexed *L, int i, const char *text)
{
	return i >= 0 && i < L->n && L->t[i].len == strlen(text) && !strncmp(L->src + L->t[i].at, text, L->t[i].len);
}

bool
mutant_lex_ident(const struct lexed *L, int i)
{
	return i >= 0 && i < L->n && L->t[i].kind == TOK_IDENT;
}

/* The source's own text from token first to token last, as written. */
char *
mutant_lex_span(const struct lexed *L, int first, int last)
{
	size_t from = L->t[first].at, to = L->t[last].at + L->t[last].len;
	return xasprintf("%.*s", (int)(to - from), L->src + from);
}

bool
mutant_lex_same(const struct lexed *L, int a0, int a1, int b0, int b1)
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
mutant_lex_statement_boundary(const struct lexed *L, int i)
{
	return i < 0 || mutant_lex_is(L, i, ";") || mutant_lex_is(L, i, "{") || mutant_lex_is(L, i, "}") ||
	       mutant_lex_is(L, i, ")") || mutant_lex_is(L, i, "else") || mutant_lex_is(L, i, ":");
}

/* Whether a token ends an operand of a comparison or a conditional expression, looking outward. */
bool
mutant_lex_expression_edge(const struct lexed *L, int i)
{
	static const char *const edges[] = { ";", ",", "{", "}", "(", "[", "?", ":", "&&", "||", "=", "+=", "-=",
					     "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "return", "!", NULL };
	for (const char *const *e = edges; *e; e++)
		if (mutant_lex_is(L, i, *e))
			return true;
	return false;
}

/* The first token of the operand that ends at token `end`, going left over brackets. */
int
mutant_lex_operand_start(const struct lexed *L, int end, int floor)
{
	int i = end;
	while (i > floor) {
		if ((mutant_lex_is(L, i, ")") || mutant_lex_is(L, i, "]")) && L->t[i].match >= 0 && L->t[i].match > floor) {
			i = L->t[i].match - 1;
			continue;
		}
		if (mutant_lex_expression_edge(L, i))
			break;
		i--;
	}
	return i + 1;
}

/* The first token of the condition of a `?` just after token `end`: && and || belong to it. */
int
mutant_lex_condition_start(const struct lexed *L, int end)
{
	int i = end;
	while (i >= 0) {
		if ((mutant_lex_is(L, i, ")") || mutant_lex_is(L, i, "]")) && L->t[i].match >= 0) {
			i = L->t[i].match - 1;
			continue;
		}
		if (mutant_lex_expression_edge(L, i) && !mutant_lex_is(L, i, "&&") && !mutant_lex_is(L, i, "||") &&
		    !mutant_lex_is(L, i, "!"))
			break;
		i--;
	}
	return i + 1;
}

/* The last token of the operand that starts at token `start`, going right over brackets. */
int
mutant_lex_operand_end(const struct lexed *L, int start, int ceiling)
{
	int i = start;
	while (i < ceiling) {
		if ((mutant_lex_is(L, i, "(") || mutant_lex_is(L, i, "[")) && L->t[i].match >= 0 && L->t[i].match < ceiling) {
			i = L->t[i].match + 1;
			continue;
		}
		if (mutant_lex_expression_edge(L, i) || mutant_lex_is(L, i, ")") || mutant_lex_is(L, i, "]"))
			break;
		i++;
	}
	return i - 1;
}
