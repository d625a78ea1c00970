#include "grader/engine/compare.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/dtype.h"
#include "lib/util.h"
#include "sim/fill.h"

/* The simulator's fill of shared memory as an element of type t reads it (0: the type cannot tell it). */
static uint64_t
shared_fill(uint32_t t)
{
	uint64_t word = CUDASIM_SHARED_FILL_BITS;
	switch (t) {
	case DTYPE_FLOAT64:
		return word << 32 | word;
	case DTYPE_UINT8:
		return 0;
	default:
		return word;
	}
}

static uint64_t
sign_bit(uint32_t t)
{
	return t == DTYPE_FLOAT64 ? 1ull << 63 : t == DTYPE_FLOAT32 ? 1ull << 31 : 0;
}

static uint64_t
value_mask(uint32_t t)
{
	return t == DTYPE_FLOAT64 ? ~0ull : t == DTYPE_UINT8 ? 0xffull : 0xffffffffull;
}

/*
 * How element i came to be wrong, from its bits after the first launch (over
 * the poison) and, when the runner launched again over the second poison,
 * after that one. A float keeps its NaN through arithmetic; an integer
 * updated from a poison lies the same distance from each.
 */
static void
classify(uint32_t t, const void *actual, const void *second, size_t i, struct mismatch *m)
{
	uint64_t bits = dtype_bits(actual, t, i), mask = value_mask(t);
	uint64_t p1 = dtype_repeated(t, dtype_poison_byte(t)), p2 = dtype_repeated(t, DTYPE_SECOND_POISON_BYTE);
	uint64_t bits2 = second ? dtype_bits(second, t, i) : 0;
	uint64_t fill = shared_fill(t);
	m->unstored_shared = fill && (bits & ~sign_bit(t)) == fill;
	if (m->unstored_shared)
		return;
	/* a float of the local fill swallows what is added to it; an integer is the fill itself */
	uint64_t local = dtype_repeated(t, CUDASIM_LOCAL_FILL_BYTE);
	m->unset_local = t != DTYPE_UINT8 && (bits & ~sign_bit(t)) == (local & ~sign_bit(t));
	if (m->unset_local)
		return;
	if (dtype_is_float(t)) {
		bool nan = isnan(dtype_load(actual, t, i));
		m->updated_unset = nan && second && !isnan(dtype_load(second, t, i)) && bits2 != p2;
		m->never_written = !m->updated_unset && (bits == p1 || (nan && second && bits2 == p2));
	} else {
		uint64_t delta = (bits - p1) & mask;
		m->updated_unset = second && delta && delta == ((bits2 - p2) & mask);
		m->never_written = bits == p1 && (!second || bits2 == p2);
	}
}

void
compare_output(const void *actual, const void *second, uint32_t dtype, const struct proto_expect *expected,
	       size_t n, size_t cols, const struct proto_chunk *chunks, size_t nchunks, struct comparison *r)
{
	memset(r, 0, sizeof(*r));
	r->dtype = dtype < DTYPE_COUNT ? dtype : DTYPE_FLOAT32;
	r->total = n;
	r->row_min = r->col_min = SIZE_MAX;
	if (nchunks)
		r->sampled_from = chunks[nchunks - 1].start + chunks[nchunks - 1].count;
	bool exact = !dtype_is_float(r->dtype);
	size_t chunk = 0, chunk_first = 0; /* the chunk element i is in, and i's position where it begins */
	for (size_t i = 0; i < n; i++) {
		while (chunk < nchunks && i - chunk_first >= chunks[chunk].count)
			chunk_first += chunks[chunk++].count;
		size_t at = chunk < nchunks ? chunks[chunk].start + (i - chunk_first) : i;
		double a = dtype_load(actual, r->dtype, i);
		double e = expected[i].value;
		bool ok = exact ? a == e : isfinite(a) && fabs(a - e) <= expected[i].bound;
		if (ok)
			continue;
		r->wrong++;
		struct mismatch m = { .index = at, .expected = e, .actual = a };
		classify(r->dtype, actual, second, i, &m);
		if (m.unstored_shared)
			r->unstored_shared++;
		else if (m.unset_local)
			r->unset_local++;
		else if (m.updated_unset)
			r->updated_unset++;
		else if (m.never_written)
			r->unwritten++;
		else if (!isfinite(a))
			r->not_finite++;
		if (r->shown < COMPARE_SHOWN)
			r->first[r->shown++] = m;
		size_t row = cols ? at / cols : 0, col = cols ? at % cols : at;
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
compare_format_count(size_t n, char *out, size_t size)
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

/* A value as its type prints: a float32 to 9 digits; a float64 in the fewest digits that read back as
 * it (1.00000001, not 1.0000000099999999); an integer whole. */
static void
add_number(struct buf *b, uint32_t dtype, double v)
{
	char text[40];
	if (isnan(v)) {
		buf_addstr(b, "NaN");
		return;
	}
	for (int digits = dtype == DTYPE_FLOAT32 ? 9 : 15; digits <= 17; digits++) {
		snprintf(text, sizeof(text), "%.*g", digits, v);
		if (dtype == DTYPE_FLOAT32 || strtod(text, NULL) == v)
			break;
	}
	buf_addstr(b, text);
}

static void
describe_value(struct buf *b, uint32_t dtype, const struct mismatch *m)
{
	bool is_float = dtype_is_float(dtype);
	if (m->never_written) {
		buf_addstr(b, "was never written");
		return;
	}
	buf_addstr(b, "is ");
	add_number(b, dtype, m->actual);
	if (m->unstored_shared)
		buf_addstr(b, is_float ? " from shared memory nobody stored to"
				       : ", the simulator's fill of shared memory nobody stored to");
	else if (m->updated_unset)
		buf_addstr(b, is_float ? ": it was updated (+=, an atomic) from the harness's poison, never set first"
				       : ": it was updated (+=, an atomic) from the harness's poison (every element "
					 "starts as it), never set first");
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
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < r->shown; i++) {
		const struct mismatch *m = &r->first[i];
		buf_addstr(&b, i ? "; " : "");
		describe_element(&b, name, rows, cols, m->index);
		buf_addstr(&b, " ");
		describe_value(&b, r->dtype, m);
		buf_addstr(&b, ", expected ");
		add_number(&b, r->dtype, m->expected);
	}
	char wrong[32], total[32];
	compare_format_count(r->wrong, wrong, sizeof(wrong));
	compare_format_count(r->total, total, sizeof(total));
	if (r->sampled_from) {
		char whole[32];
		compare_format_count(r->sampled_from, whole, sizeof(whole));
		buf_addf(&b, " (%s of the %s elements checked of %s wrong", wrong, total, whole);
	} else {
		buf_addf(&b, " (%s of %s elements wrong", wrong, total);
	}
	char count[32];
	if (r->unwritten == r->wrong)
		buf_addstr(&b, ", none of them written");
	else if (r->unwritten) {
		compare_format_count(r->unwritten, count, sizeof(count));
		buf_addf(&b, ", %s never written", count);
	}
	if (r->updated_unset) {
		compare_format_count(r->updated_unset, count, sizeof(count));
		buf_addf(&b, ", %s updated before anything set them: zero an output before adding into it", count);
	}
	if (r->unstored_shared) {
		compare_format_count(r->unstored_shared, count, sizeof(count));
		buf_addf(&b, ", %s copied from __shared__ memory that no thread stored to: is a load into shared "
			 "memory missing, or guarded off?", count);
	}
	if (r->unset_local) {
		compare_format_count(r->unset_local, count, sizeof(count));
		buf_addf(&b, ", %s computed from a local variable read before it was set: does an accumulator "
			 "(float sum;) start without its first value?", count);
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
		buf_addstr(&b, r->sampled_from ? ": every one checked" : ": every element");
	buf_addstr(&b, ")");
	return buf_detach(&b);
}
