/* hint: the hints that answer a verdict, and formulas in their text (see hint.h). */
#include "tui/hint.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/hints.h"
#include "lib/util.h"

int
hint_list(const struct item *it, const struct result *r, const struct hint ***out, const char **key)
{
	const struct hint **h = xcalloc((size_t)it->nhints + 1, sizeof(*h));
	const char **whens = xcalloc((size_t)it->nhints + 1, sizeof(*whens));
	const char **kinds = xcalloc((size_t)(r ? r->ndiags : 0) + 1, sizeof(*kinds));
	int *order = xcalloc((size_t)it->nhints + 1, sizeof(*order));

	for (int i = 0; i < it->nhints; i++)
		whens[i] = it->hints[i].when;
	for (int i = 0; r && i < r->ndiags; i++)
		kinds[i] = r->diags[i].kind;
	struct hint_verdict v = { r != NULL, r && r->pass, r ? r->stage : NULL, kinds, r ? r->ndiags : 0 };
	int n = hints_order(whens, it->nhints, &v, order, key);

	for (int i = 0; i < n; i++)
		h[i] = &it->hints[order[i]];
	*out = h;
	free(order);
	free(kinds);
	free(whens);
	return n;
}

/* ---- formulas in prose ---- */

#define NO ((size_t)-1)

struct formula {
	const char *s;
	size_t len;
	bool code;		/* an operator, a subscript, a call or a member was used: code, not prose */
	int depth;
};

static bool
id_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool
id_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static size_t
spaces(const struct formula *f, size_t i)
{
	while (i < f->len && f->s[i] == ' ')
		i++;
	return i;
}

/* Words of prose that are never an operand: "with < and not <=" is no formula. */
static bool
prose_word(const char *s, size_t n)
{
	static const char *const words[] = {
		"a", "an", "and", "are", "as", "at", "be", "both", "but", "by", "each", "every", "for",
		"from", "if", "in", "into", "is", "it", "its", "not", "of", "on", "one", "only", "or",
		"than", "that", "the", "then", "this", "to", "was", "when", "where", "which", "while",
		"with", "you", "your",
	};

	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == n && !strncasecmp(words[i], s, n))
			return true;
	return false;
}

static size_t expr(struct formula *f, size_t i);

/* expr, expr, …  inside brackets */
static size_t
list(struct formula *f, size_t i)
{
	size_t j = expr(f, i), k;

	while (j != NO) {
		k = spaces(f, j);
		if (k >= f->len || f->s[k] != ',')
			return j;
		j = expr(f, spaces(f, k + 1));
	}
	return NO;
}

/* ( list ) or [ list ] at i, whose closing bracket is close */
static size_t
group(struct formula *f, size_t i, char close)
{
	bool code = f->code;
	size_t j;

	if (f->depth > 16)
		return NO;
	f->depth++;
	j = list(f, spaces(f, i + 1));
	f->depth--;
	if (j != NO)
		j = spaces(f, j);
	if (j != NO && j < f->len && f->s[j] == close)
		return j + 1;
	/* what failed inside says nothing of what follows */
	f->code = code;
	return NO;
}

/* *word: it is a name (a call may follow); *prose: a word of prose ("by", "in") */
static size_t
primary(struct formula *f, size_t i, bool *word, bool *prose)
{
	size_t j = i;

	*word = *prose = false;
	if (i >= f->len)
		return NO;
	if (isdigit((unsigned char)f->s[i])) {
		while (j < f->len && isdigit((unsigned char)f->s[j]))
			j++;
		if (j + 1 < f->len && f->s[j] == '.' && isdigit((unsigned char)f->s[j + 1]))
			for (j++; j < f->len && isdigit((unsigned char)f->s[j]); j++)
				;
		/* 0.5f, 2D, 1.25x */
		while (j < f->len && id_char(f->s[j]))
			j++;
		return j;
	}
	if (id_start(f->s[i])) {
		while (j < f->len && id_char(f->s[j]))
			j++;
		*prose = prose_word(f->s + i, j - i);
		*word = true;
		return j;
	}
	if (f->s[i] == '(')
		return group(f, i, ')');
	if (f->s[i] == '[')
		return group(f, i, ']');
	return NO;
}

/*
 * A primary and what follows it without a space: [i], (args), .member,
 * ->member, ++.  *lone: it is a word of prose with nothing after it, an
 * operand only beside an operator written without spaces ("by*32").
 */
static size_t
postfix(struct formula *f, size_t i, bool *lone)
{
	bool word;
	size_t j = primary(f, i, &word, lone), start = j, k;

	while (j != NO && j < f->len) {
		const char *s = f->s + j;

		if (*s == '[' && (k = group(f, j, ']')) != NO) {
			j = k;
		} else if (*s == '(' && word && (k = spaces(f, j + 1)) < f->len && f->s[k] == ')') {
			j = k + 1;
		} else if (*s == '(' && word && (k = group(f, j, ')')) != NO) {
			j = k;
		} else if ((*s == '.' || (*s == '-' && j + 1 < f->len && s[1] == '>'))) {
			size_t m = j + (*s == '.' ? 1 : 2);

			if (m >= f->len || !id_start(f->s[m]))
				break;
			/* "e.g." and "i.e." are prose */
			if (*s == '.' && j - i == 1 && m + 1 < f->len && f->s[m + 1] == '.')
				break;
			for (j = m; j < f->len && id_char(f->s[j]); j++)
				;
			word = true;
			f->code = true;
			continue;
		} else if (j + 1 < f->len && (!strncmp(s, "++", 2) || !strncmp(s, "--", 2)) &&
			   (j + 2 >= f->len || !id_char(s[2]))) {
			j += 2;
			continue;
		} else {
			break;
		}
		f->code = true;
		word = false;
	}
	if (j != start)
		*lone = false;
	return j;
}

/* Unary operators written against their operand: *sum, !done, &x, -1 */
static size_t
unary(struct formula *f, size_t i, bool *lone)
{
	if (i + 1 < f->len && strchr("*&!~-", f->s[i]) &&
	    (id_start(f->s[i + 1]) || isdigit((unsigned char)f->s[i + 1]) || f->s[i + 1] == '(')) {
		size_t j = postfix(f, i + 1, lone);

		if (j != NO && f->s[i] != '-')
			f->code = true;
		*lone = false;
		return j;
	}
	return postfix(f, i, lone);
}

/* The binary operator at i, or 0: the longest that matches. */
static size_t
binary(const struct formula *f, size_t i)
{
	static const char *const ops[] = {
		"<<=", ">>=", "<=", ">=", "==", "!=", "&&", "||", "<<", ">>", "+=", "-=", "*=", "/=",
		"..", "+", "-", "*", "/", "%", "<", ">", "=", "&", "|", "^",
	};

	for (size_t k = 0; k < ARRAY_SIZE(ops); k++) {
		size_t n = strlen(ops[k]);

		if (i + n <= f->len && !strncmp(f->s + i, ops[k], n))
			return n;
	}
	return 0;
}

static size_t
expr(struct formula *f, size_t i)
{
	bool lone, lone_right;
	size_t j = unary(f, i, &lone);

	while (j != NO) {
		size_t op = spaces(f, j), n = binary(f, op), next, k;
		bool code = f->code;

		if (!n)
			break;
		next = spaces(f, op + n);
		/* "a * b" or "a*b", never "a *b": that is a pointer, or emphasis */
		if ((op > j) != (next > op + n) || next >= f->len)
			break;
		/* "with < and" is prose about operators */
		if (lone && op > j)
			break;
		/* "half-loaded", "and/or", "1-2 hints": words and ranges, not arithmetic */
		if (op == j && (f->s[op] == '-' || f->s[op] == '/') && n == 1 &&
		    ((isalpha((unsigned char)f->s[j - 1]) && isalpha((unsigned char)f->s[next])) ||
		     (isdigit((unsigned char)f->s[j - 1]) && isdigit((unsigned char)f->s[next]))))
			break;
		k = unary(f, next, &lone_right);
		/* "+ by*32": a word of prose bound to the next operand by an operator without spaces */
		if (k != NO && lone_right && k < f->len && binary(f, k) && k + binary(f, k) < f->len &&
		    f->s[k + binary(f, k)] != ' ')
			lone_right = false;
		if (k == NO || (lone_right && op > j)) {
			f->code = code;
			break;
		}
		f->code = true;
		lone = lone_right;
		j = k;
	}
	return j;
}

/* Prose with its formulas as code. */
static void
add_prose(struct doc_span **runs, int *n, int *alloc, const char *s, size_t len)
{
	size_t plain = 0;

	for (size_t i = 0; i < len;) {
		struct formula f = { s, len, false, 0 };
		size_t end;

		if (i && (id_char(s[i - 1]) || s[i - 1] == '.')) {
			i++;
			continue;
		}
		end = expr(&f, i);
		if (end == NO || !f.code) {
			i++;
			continue;
		}
		spans_add(runs, n, alloc, S_PLAIN, s + plain, i - plain);
		spans_add(runs, n, alloc, S_CODE, s + i, end - i);
		plain = i = end;
	}
	spans_add(runs, n, alloc, S_PLAIN, s + plain, len - plain);
}

int
hint_runs(const char *text, struct doc_span **runs)
{
	int n = 0, alloc = 0;
	const char *p = text;

	*runs = NULL;
	while (*p) {
		const char *tick = strchr(p, '`'), *close = tick ? strchr(tick + 1, '`') : NULL;

		if (!close) {
			add_prose(runs, &n, &alloc, p, strlen(p));
			break;
		}
		add_prose(runs, &n, &alloc, p, (size_t)(tick - p));
		spans_add(runs, &n, &alloc, S_CODE, tick + 1, (size_t)(close - tick - 1));
		p = close + 1;
	}
	return n;
}
