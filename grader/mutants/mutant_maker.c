/*
 * mutant_maker.c — edits committed as mutants, and their diffs (see mutant_maker.h).
 */
#include "grader/mutants/mutant_maker.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* ------------------------------------------------------------ building mutants */

void
mutant_maker_edit(struct maker *k, size_t at, size_t len, char *with)
{
	if (k->nedits == EDITS_MAX) {
		free(with);
		return;
	}
	k->edits[k->nedits++] = (struct edit){ at, len, with };
}

/* Replace tokens first..last with `with` (owned). */
void
mutant_maker_edit_tokens(struct maker *k, int first, int last, char *with)
{
	const struct tok *a = &k->L->t[first], *b = &k->L->t[last];
	mutant_maker_edit(k, a->at, b->at + b->len - a->at, with);
}

static int
compare_edits(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* The lines of text, without their newlines; *n gets how many. The array and the copy are yours. */
static char **
split_lines(const char *text, int *n)
{
	char *copy = xstrdup(text);
	int cap = 64;
	char **lines = xmalloc((size_t)cap * sizeof(*lines));
	*n = 0;
	for (char *p = copy; *p;) {
		if (*n == cap) {
			cap *= 2;
			lines = xrealloc(lines, (size_t)cap * sizeof(*lines));
		}
		lines[(*n)++] = p;
		char *end = strchr(p, '\n');
		if (!end)
			break;
		*end = 0;
		p = end + 1;
	}
	if (!*n)
		free(copy);
	return lines;
}

/* A unified diff of the lines that differ, with one line of context on each side. */
char *
mutant_maker_unified_diff(const char *from, const char *to, const char *path, const char *id)
{
	int na, nb;
	char **a = split_lines(from, &na), **b = split_lines(to, &nb);
	int top = 0, bottom = 0;
	while (top < na && top < nb && !strcmp(a[top], b[top]))
		top++;
	while (bottom < na - top && bottom < nb - top && !strcmp(a[na - 1 - bottom], b[nb - 1 - bottom]))
		bottom++;
	int c0 = top > 0 ? top - 1 : 0, a_end = na - bottom + (bottom > 0), b_end = nb - bottom + (bottom > 0);
	struct buf d = BUF_INIT;
	buf_addf(&d, "--- %s\n+++ %s (mutant %s)\n@@ -%d,%d +%d,%d @@\n", path, path, id, c0 + 1, a_end - c0, c0 + 1,
		 b_end - c0);
	for (int i = c0; i < top; i++)
		buf_addf(&d, " %s\n", a[i]);
	for (int i = top; i < na - bottom; i++)
		buf_addf(&d, "-%s\n", a[i]);
	for (int i = top; i < nb - bottom; i++)
		buf_addf(&d, "+%s\n", b[i]);
	for (int i = na - bottom; i < a_end; i++)
		buf_addf(&d, " %s\n", a[i]);
	if (na)
		free(a[0]);
	if (nb)
		free(b[0]);
	free(a);
	free(b);
	return buf_detach(&d);
}

/* The pending edits become a mutant described by `what` (owned), unless one with the same text exists. */
void
mutant_maker_commit(struct maker *k, enum mutant_op op, char *what)
{
	if (!k->nedits) {
		free(what);
		return;
	}
	qsort(k->edits, (size_t)k->nedits, sizeof(*k->edits), compare_edits);
	struct buf text = BUF_INIT;
	size_t at = 0;
	bool overlap = false;
	for (int i = 0; i < k->nedits; i++) {
		if (k->edits[i].at < at) {
			overlap = true;
			break;
		}
		buf_add(&text, k->L->src + at, k->edits[i].at - at);
		buf_addstr(&text, k->edits[i].with);
		at = k->edits[i].at + k->edits[i].len;
	}
	buf_addstr(&text, k->L->src + at);
	int line = 1;
	for (const char *p = k->L->src; p < k->L->src + k->edits[0].at; p++)
		line += *p == '\n';
	for (int i = 0; i < k->nedits; i++)
		free(k->edits[i].with);
	k->nedits = 0;
	char *mutated = buf_detach(&text);
	bool same = overlap || !strcmp(mutated, k->L->src);
	for (int i = 0; i < k->n && !same; i++)
		same = !strcmp(k->m[i].text, mutated);
	if (same) {
		free(mutated);
		free(what);
		return;
	}
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 16;
		k->m = xrealloc(k->m, (size_t)k->cap * sizeof(*k->m));
	}
	k->m[k->n++] = (struct mutant){ op, NULL, line, what, mutated, NULL };
}
