#include "compare.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "sim/fill.h"

static uint32_t
bits_of(float v)
{
	uint32_t bits;
	memcpy(&bits, &v, sizeof(bits));
	return bits;
}

bool
compare_is_poison(float v)
{
	return bits_of(v) == PROTO_POISON_BITS;
}

/* The simulator's fill of shared memory, or arithmetic on it (which may flip the sign, not the payload). */
static bool
from_unstored_shared(float v)
{
	return (bits_of(v) & 0x7fffffffu) == CUDASIM_SHARED_FILL_BITS;
}

/* NaN after the first launch (the poison, or arithmetic on it) but a number after a launch over the second
 * poison: the element was updated from what it found, never set. */
static bool
updated_unset(float first, const float *second, size_t i)
{
	return isnan(first) && second && !isnan(second[i]) && bits_of(second[i]) != PROTO_SECOND_POISON_BITS;
}

/* The poison left alone: the first launch's bits, or the second poison untouched by the second launch. */
static bool
never_written(float first, const float *second, size_t i)
{
	return compare_is_poison(first) || (isnan(first) && second && bits_of(second[i]) == PROTO_SECOND_POISON_BITS);
}

void
compare_output(const float *actual, const float *second, const struct proto_expect *expected, size_t n,
	       size_t cols, struct comparison *r)
{
	memset(r, 0, sizeof(*r));
	r->total = n;
	r->row_min = r->col_min = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		float a = actual[i];
		double e = expected[i].value;
		bool ok = isfinite(a) && fabs((double)a - e) <= expected[i].bound;
		if (ok)
			continue;
		r->wrong++;
		bool shared = from_unstored_shared(a);
		bool unset = !shared && updated_unset(a, second, i);
		bool untouched = !shared && !unset && never_written(a, second, i);
		if (shared)
			r->unstored_shared++;
		else if (unset)
			r->updated_unset++;
		else if (untouched)
			r->unwritten++;
		else if (!isfinite(a))
			r->not_finite++;
		if (r->shown < COMPARE_SHOWN)
			r->first[r->shown++] = (struct mismatch){ i, e, a, unset, untouched, shared };
		size_t row = cols ? i / cols : 0, col = cols ? i % cols : i;
		if (row < r->row_min)
			r->row_min = row;
		if (row > r->row_max)
			r->row_max = row;
		if (col < r->col_min)
			r->col_min = col;
		if (col > r->col_max)
			r->col_max = col;
	}
}

void
format_count(size_t n, char *out, size_t size)
{
	char digits[32];
	int len = snprintf(digits, sizeof(digits), "%zu", n), o = 0;
	for (int i = 0; i < len && o + 2 < (int)size; i++) {
		if (i && (len - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = 0;
}

static void
describe_element(struct buf *b, const char *name, size_t rows, size_t cols, size_t index)
{
	if (rows > 1)
		buf_addf(b, "%s[%zu][%zu]", name, index / cols, index % cols);
	else
		buf_addf(b, "%s[%zu]", name, index);
}

static void
describe_value(struct buf *b, const struct mismatch *m)
{
	float v = m->actual;
	if (m->unstored_shared)
		buf_addstr(b, "is NaN from shared memory nobody stored to");
	else if (m->updated_unset)
		buf_addstr(b, "is NaN: it was updated (+=, an atomic) from the harness's poison, never set first");
	else if (m->never_written)
		buf_addstr(b, "was never written");
	else if (isnan(v))
		buf_addstr(b, "is NaN");
	else
		buf_addf(b, "is %.9g", (double)v);
}

static void
describe_range(struct buf *b, const char *what, size_t lo, size_t hi)
{
	if (lo == hi)
		buf_addf(b, "all in %s %zu", what, lo);
	else
		buf_addf(b, "all in %ss %zu-%zu", what, lo, hi);
}

char *
compare_describe(const struct comparison *r, const char *name, size_t rows, size_t cols)
{
	struct buf b = { 0 };
	for (size_t i = 0; i < r->shown; i++) {
		const struct mismatch *m = &r->first[i];
		buf_addstr(&b, i ? "; " : "");
		describe_element(&b, name, rows, cols, m->index);
		buf_addstr(&b, " ");
		describe_value(&b, m);
		buf_addf(&b, ", expected %.9g", m->expected);
	}
	char wrong[32], total[32];
	format_count(r->wrong, wrong, sizeof(wrong));
	format_count(r->total, total, sizeof(total));
	buf_addf(&b, " (%s of %s elements wrong", wrong, total);
	char count[32];
	if (r->unwritten == r->wrong)
		buf_addstr(&b, ", none of them written");
	else if (r->unwritten) {
		format_count(r->unwritten, count, sizeof(count));
		buf_addf(&b, ", %s never written", count);
	}
	if (r->updated_unset) {
		format_count(r->updated_unset, count, sizeof(count));
		buf_addf(&b, ", %s updated before anything set them: zero an output before adding into it", count);
	}
	if (r->unstored_shared) {
		format_count(r->unstored_shared, count, sizeof(count));
		buf_addf(&b, ", %s copied from __shared__ memory that no thread stored to: is a load into shared "
			 "memory missing, or guarded off?", count);
	}
	/* a pattern in where the wrong ones are is often the best clue */
	bool partial_rows = rows > 1 && (r->row_min > 0 || r->row_max + 1 < rows);
	bool partial_cols = cols > 1 && (r->col_min > 0 || r->col_max + 1 < cols);
	if (r->wrong < r->total && partial_rows) {
		buf_addstr(&b, "; ");
		describe_range(&b, "row", r->row_min, r->row_max);
	}
	if (r->wrong < r->total && partial_cols) {
		buf_addstr(&b, partial_rows ? ", " : "; ");
		describe_range(&b, rows > 1 ? "column" : "element", r->col_min, r->col_max);
	}
	if (r->wrong == r->total)
		buf_addstr(&b, ": every element");
	buf_addstr(&b, ")");
	return buf_detach(&b);
}
