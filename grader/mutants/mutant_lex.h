/*
 * mutant_lex.h — the source as tokens, for the mutation operators: the
 * tokens themselves (lib/lex.c's, the project's one C++ lexer, with the
 * operators' punctuation joined) and where a statement, an operand or a
 * condition starts and ends. Comments, strings and preprocessor lines are kept
 * whole and never rewritten. Calls nothing of the grader's.
 */
#ifndef CUDALINGS_MUTANT_LEX_H
#define CUDALINGS_MUTANT_LEX_H

#include <stdbool.h>
#include <stddef.h>

enum tok_kind { TOK_IDENT, TOK_NUMBER, TOK_STRING, TOK_PUNCT };

struct tok {
	enum tok_kind kind;
	size_t at, len;
	int line;
	int match; /* the other bracket of ( [ { ) ] }, or -1 */
};

struct lexed {
	const char *src;
	struct tok *t;
	int n;
};

void mutant_lex(const char *src, struct lexed *L);
bool mutant_lex_is(const struct lexed *L, int i, const char *text);
bool mutant_lex_ident(const struct lexed *L, int i);
/* The source's own text from token first to token last, as written. */
char *mutant_lex_span(const struct lexed *L, int first, int last);
bool mutant_lex_same(const struct lexed *L, int a0, int a1, int b0, int b1);
/* A token after which a statement starts. */
bool mutant_lex_statement_boundary(const struct lexed *L, int i);
/* Whether a token ends an operand of a comparison or a conditional expression, looking outward. */
bool mutant_lex_expression_edge(const struct lexed *L, int i);
/* The first token of the operand that ends at token `end`, going left over brackets. */
int mutant_lex_operand_start(const struct lexed *L, int end, int floor);
/* The first token of the condition of a `?` just after token `end`: && and || belong to it. */
int mutant_lex_condition_start(const struct lexed *L, int end);
/* The last token of the operand that starts at token `start`, going right over brackets. */
int mutant_lex_operand_end(const struct lexed *L, int start, int ceiling);

#endif
