/*
 * mutant_maker.h — one mutant at a time: edits pending against the source,
 * committed as a mutant unless its text is one already made; the diff that
 * shows it. Below the operators (mutant_ops), above the tokens.
 */
#ifndef CUDALINGS_MUTANT_MAKER_H
#define CUDALINGS_MUTANT_MAKER_H

#include "grader/mutants/mutant_lex.h"
#include "grader/mutants/mutants.h"

#define EDITS_MAX 32

struct edit {
	size_t at, len;
	char *with;
};

struct maker {
	const struct lexed *L;
	const char *path;
	struct mutant *m;
	int n, cap;
	struct edit edits[EDITS_MAX];
	int nedits;
};

void mutant_maker_edit(struct maker *k, size_t at, size_t len, char *with);
/* Replace tokens first..last with `with` (owned). */
void mutant_maker_edit_tokens(struct maker *k, int first, int last, char *with);
/* A unified diff of the lines that differ, with one line of context on each side. */
char *mutant_maker_unified_diff(const char *from, const char *to, const char *path, const char *id);
/* The pending edits become a mutant described by `what` (owned), unless one with the same text exists. */
void mutant_maker_commit(struct maker *k, enum mutant_op op, char *what);

#endif
