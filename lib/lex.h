/*
 * lex.h — C++ source as tokens, the one lexer of the project: the
 * simulator's rewriter (sim/rewrite/) and the mutant maker read sources
 * through it. Comments and white space are dropped; strings, raw strings
 * and character literals (with their u8/u/U/L prefixes), numbers (digit
 * separators, exponents), identifiers and punctuation are tokens, the
 * punctuation one character each but for "::" and "->" (a caller that wants
 * ">>=" joins adjacent ones: their byte ranges touch). Each preprocessor
 * directive is a segment of its own, numbered from 1 (the code is segment
 * 0), and an #include's <path> is one string token. Lines count from 1,
 * through backslash continuations and comments. A quote that does not close
 * on its line (an apostrophe in "#error don't") is punctuation: the
 * compiler judges it.
 */
#ifndef LIB_LEX_H
#define LIB_LEX_H

#include <stdbool.h>
#include <stddef.h>

enum lex_kind { LEX_IDENT, LEX_NUMBER, LEX_STRING, LEX_CHAR, LEX_PUNCT };

struct lex_token {
	enum lex_kind kind;
	size_t start, end;	/* byte range in the source */
	int line;
	int seg;		/* 0: code; n: the n-th preprocessor directive */
};

struct lex {
	const char *src;
	size_t len;
	struct lex_token *tok;	/* the tokens, in order; the lexer owns them until lex_free */
	int n, cap;
	const char *error;	/* why lexing stopped early ("unterminated comment"), or NULL */
	int error_line;
};

/*
 * The tokens of src[0, len), into L. Returns 0, or -1 with L->error and
 * L->error_line set when a comment or a raw string never ends: the tokens
 * before it are kept. src must stay alive while the tokens are used; free
 * them with lex_free.
 */
int lex_source(struct lex *L, const char *src, size_t len);
void lex_free(struct lex *L);
/* Whether token i exists and its text is s. */
bool lex_is(const struct lex *L, int i, const char *s);
/* Whether c may be part of an identifier (letters, digits, '_', '$', UTF-8's bytes). */
bool lex_ident_char(int c);

#endif
