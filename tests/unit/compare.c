#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "sim/fill.h"

static float
poison(void)
{
	float v;
	memset(&v, 0xff, sizeof(v));
	return v;
}

static void
exact(struct proto_expect *e, const float *values, size_t n)
{
	for (size_t i = 0; i < n; i++)
		e[i] = (struct proto_expect){ values[i], 0 };
}

Test(compare, equal_outputs_pass, .timeout = 5)
{
	float v[4] = { 1, -2, 3.5f, 0.25f };
	struct proto_expect e[4];
	struct comparison r;
	exact(e, v, 4);
	compare_output(v, NULL, e, 4, 2, &r);
	cr_assert_eq(r.wrong, 0);
	cr_assert_eq(r.total, 4);
}

Test(compare, poison_is_reported_as_never_written, .timeout = 5)
{
	float expected[6] = { 1, 2, 3, 4, 5, 6 }, actual[6] = { 1, 2, 3, 4, 5, 6 };
	struct proto_expect e[6];
	struct comparison r;
	exact(e, expected, 6);
	actual[4] = poison();
	compare_output(actual, NULL, e, 6, 3, &r);
	cr_assert_eq(r.wrong, 1);
	cr_assert_eq(r.unwritten, 1);
	char *text = compare_describe(&r, "out", 2, 3);
	cr_assert(strstr(text, "out[1][1] was never written, expected 5"), "got: %s", text);
	cr_assert(strstr(text, "1 of 6 elements wrong, none of them written"), "got: %s", text);
	free(text);
}

Test(compare, nan_never_passes_even_with_a_huge_bound, .timeout = 5)
{
	float actual[1] = { NAN };
	struct proto_expect e[1] = { { 1.0, 1e30 } };
	struct comparison r;
	compare_output(actual, NULL, e, 1, 1, &r);
	cr_assert_eq(r.wrong, 1);
	cr_assert_eq(r.not_finite, 1);
	char *text = compare_describe(&r, "sums", 1, 1);
	cr_assert(strstr(text, "sums[0] is NaN"), "got: %s", text);
	free(text);
}

Test(compare, infinity_fails, .timeout = 5)
{
	float actual[1] = { INFINITY };
	struct proto_expect e[1] = { { 1.0, 1e30 } };
	struct comparison r;
	compare_output(actual, NULL, e, 1, 1, &r);
	cr_assert_eq(r.wrong, 1);
}

Test(compare, bound_is_respected_on_both_sides, .timeout = 5)
{
	float actual[3] = { 1.001f, 0.999f, 1.01f };
	struct proto_expect e[3] = { { 1, 0.002 }, { 1, 0.002 }, { 1, 0.002 } };
	struct comparison r;
	compare_output(actual, NULL, e, 3, 3, &r);
	cr_assert_eq(r.wrong, 1);
	cr_assert_eq(r.first[0].index, 2);
}

Test(compare, the_wrong_rows_are_named, .timeout = 5)
{
	enum { ROWS = 64, COLS = 64 };
	static float actual[ROWS * COLS];
	static struct proto_expect e[ROWS * COLS];
	for (int i = 0; i < ROWS * COLS; i++) {
		actual[i] = (float)i;
		e[i] = (struct proto_expect){ i, 0 };
	}
	for (int row = 32; row < 40; row++)
		actual[row * COLS + 5] = -1;
	struct comparison r;
	compare_output(actual, NULL, e, ROWS * COLS, COLS, &r);
	cr_assert_eq(r.wrong, 8);
	char *text = compare_describe(&r, "out", ROWS, COLS);
	cr_assert(strstr(text, "out[32][5] is -1, expected 2053"), "got: %s", text);
	cr_assert(strstr(text, "all in rows 32-39, all in column 5"), "got: %s", text);
	cr_assert_eq(r.shown, COMPARE_SHOWN);
	free(text);
}

Test(compare, counts_have_thousands_separators, .timeout = 5)
{
	char out[32];
	format_count(16777216, out, sizeof(out));
	cr_assert_str_eq(out, "16,777,216");
	format_count(999, out, sizeof(out));
	cr_assert_str_eq(out, "999");
	format_count(0, out, sizeof(out));
	cr_assert_str_eq(out, "0");
}

Test(compare, an_output_added_into_before_it_was_set_is_not_called_unwritten, .timeout = 5)
{
	float actual[3] = { poison(), poison(), 1 }, second[3];
	memset(second, PROTO_SECOND_POISON_BYTE, sizeof(second));
	second[0] = 0.5f; /* the second launch added into its poison: it was written */
	struct proto_expect e[3];
	exact(e, (float[]){ 0.5f, 2, 1 }, 3);
	struct comparison r;
	compare_output(actual, second, e, 3, 3, &r);
	cr_assert_eq(r.updated_unset, 1);
	cr_assert_eq(r.unwritten, 1);
	char *text = compare_describe(&r, "sums", 1, 3);
	cr_assert_not_null(strstr(text, "sums[0] is NaN: it was updated"), "%s", text);
	cr_assert_not_null(strstr(text, "sums[1] was never written"), "%s", text);
	cr_assert_not_null(strstr(text, "zero an output"), "%s", text);
	free(text);
}

static float
float_of(uint32_t bits)
{
	float v;
	memcpy(&v, &bits, sizeof(v));
	return v;
}

Test(compare, a_value_copied_from_unstored_shared_memory_is_named_so, .timeout = 5)
{
	float expected[4] = { 1, 2, 3, 4 }, actual[4] = { 1, 2, 3, 4 };
	struct proto_expect e[4];
	struct comparison r;
	exact(e, expected, 4);
	actual[1] = float_of(CUDASIM_SHARED_FILL_BITS);
	actual[2] = float_of(CUDASIM_SHARED_FILL_BITS | 0x80000000u); /* negated on its way out */
	actual[3] = poison();
	compare_output(actual, NULL, e, 4, 4, &r);
	cr_assert_eq(r.wrong, 3);
	cr_assert_eq(r.unstored_shared, 2);
	cr_assert_eq(r.unwritten, 1, "the output poison is still \"never written\"");
	char *text = compare_describe(&r, "out", 1, 4);
	cr_assert_not_null(strstr(text, "out[1] is NaN from shared memory nobody stored to"), "%s", text);
	cr_assert_not_null(strstr(text, "out[3] was never written"), "%s", text);
	cr_assert_not_null(strstr(text, "2 copied from __shared__ memory that no thread stored to"), "%s", text);
	free(text);
}
