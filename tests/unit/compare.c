#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grader/engine/compare.h"
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
	compare_output(v, NULL, DTYPE_FLOAT32, e, 4, 2, NULL, 0, &r);
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
	compare_output(actual, NULL, DTYPE_FLOAT32, e, 6, 3, NULL, 0, &r);
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
	compare_output(actual, NULL, DTYPE_FLOAT32, e, 1, 1, NULL, 0, &r);
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
	compare_output(actual, NULL, DTYPE_FLOAT32, e, 1, 1, NULL, 0, &r);
	cr_assert_eq(r.wrong, 1);
}

Test(compare, bound_is_respected_on_both_sides, .timeout = 5)
{
	float actual[3] = { 1.001f, 0.999f, 1.01f };
	struct proto_expect e[3] = { { 1, 0.002 }, { 1, 0.002 }, { 1, 0.002 } };
	struct comparison r;
	compare_output(actual, NULL, DTYPE_FLOAT32, e, 3, 3, NULL, 0, &r);
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
	compare_output(actual, NULL, DTYPE_FLOAT32, e, ROWS * COLS, COLS, NULL, 0, &r);
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
	compare_format_count(16777216, out, sizeof(out));
	cr_assert_str_eq(out, "16,777,216");
	compare_format_count(999, out, sizeof(out));
	cr_assert_str_eq(out, "999");
	compare_format_count(0, out, sizeof(out));
	cr_assert_str_eq(out, "0");
}

Test(compare, an_output_added_into_before_it_was_set_is_not_called_unwritten, .timeout = 5)
{
	float actual[3] = { poison(), poison(), 1 }, second[3];
	memset(second, DTYPE_SECOND_POISON_BYTE, sizeof(second));
	second[0] = 0.5f; /* the second launch added into its poison: it was written */
	struct proto_expect e[3];
	exact(e, (float[]){ 0.5f, 2, 1 }, 3);
	struct comparison r;
	compare_output(actual, second, DTYPE_FLOAT32, e, 3, 3, NULL, 0, &r);
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
	compare_output(actual, NULL, DTYPE_FLOAT32, e, 4, 4, NULL, 0, &r);
	cr_assert_eq(r.wrong, 3);
	cr_assert_eq(r.unstored_shared, 2);
	cr_assert_eq(r.unwritten, 1, "the output poison is still \"never written\"");
	char *text = compare_describe(&r, "out", 1, 4);
	cr_assert_not_null(strstr(text, "out[1] is NaN from shared memory nobody stored to"), "%s", text);
	cr_assert_not_null(strstr(text, "out[3] was never written"), "%s", text);
	cr_assert_not_null(strstr(text, "2 copied from __shared__ memory that no thread stored to"), "%s", text);
	free(text);
}

Test(compare, a_value_from_an_unset_local_variable_is_named_so, .timeout = 5)
{
	float expected[3] = { 1, 2, 3 }, actual[3] = { 1, 2, 3 };
	struct proto_expect e[3];
	struct comparison r;
	exact(e, expected, 3);
	/* an accumulator that started at the fill: what is added to -1.7e38 vanishes */
	actual[1] = float_of(0xfefefefeu) + 2.0f;
	actual[2] = 7;
	compare_output(actual, NULL, DTYPE_FLOAT32, e, 3, 3, NULL, 0, &r);
	cr_assert_eq(r.wrong, 2);
	cr_assert_eq(r.unset_local, 1);
	char *text = compare_describe(&r, "out", 1, 3);
	cr_assert_not_null(strstr(text, "1 computed from a local variable read before it was set"), "%s", text);
	free(text);
}

/* ------------------------------------------------------------ the other types */

static void
exact_values(struct proto_expect *e, const double *values, size_t n)
{
	for (size_t i = 0; i < n; i++)
		e[i] = (struct proto_expect){ values[i], 0 };
}

Test(compare_types, int32_compares_exactly_and_names_integers, .timeout = 5)
{
	int32_t actual[4] = { 42, -7, 2147483647, 41 };
	struct proto_expect e[4];
	exact_values(e, (double[]){ 42, -7, 2147483646, 42 }, 4);
	e[3].bound = 10; /* a bound means nothing to an integer */
	struct comparison r;
	compare_output(actual, NULL, DTYPE_INT32, e, 4, 4, NULL, 0, &r);
	cr_assert_eq(r.wrong, 2);
	char *text = compare_describe(&r, "keys", 1, 4);
	cr_assert_not_null(strstr(text, "keys[2] is 2147483647, expected 2147483646"), "%s", text);
	cr_assert_not_null(strstr(text, "keys[3] is 41, expected 42"), "%s", text);
	free(text);
}

Test(compare_types, uint32_prints_whole_numbers_above_two_to_the_31, .timeout = 5)
{
	uint32_t actual[2] = { 4294967295u, 7 };
	struct proto_expect e[2];
	exact_values(e, (double[]){ 4294967294.0, 7 }, 2);
	struct comparison r;
	compare_output(actual, NULL, DTYPE_UINT32, e, 2, 2, NULL, 0, &r);
	cr_assert_eq(r.wrong, 1);
	char *text = compare_describe(&r, "bins", 1, 2);
	cr_assert_not_null(strstr(text, "bins[0] is 4294967295, expected 4294967294"), "%s", text);
	free(text);
}

Test(compare_types, an_integer_left_as_both_poisons_was_never_written, .timeout = 5)
{
	uint8_t actual[3], second[3];
	memset(actual, DTYPE_INT_POISON_BYTE, sizeof(actual));
	memset(second, DTYPE_SECOND_POISON_BYTE, sizeof(second));
	actual[0] = second[0] = 165; /* written, and the poison's value by chance: right */
	actual[1] = second[1] = 9;   /* written, wrong */
	struct proto_expect e[3];
	exact_values(e, (double[]){ 165, 10, 3 }, 3);
	struct comparison r;
	compare_output(actual, second, DTYPE_UINT8, e, 3, 3, NULL, 0, &r);
	cr_assert_eq(r.wrong, 2);
	cr_assert_eq(r.unwritten, 1);
	cr_assert_eq(r.updated_unset, 0);
	char *text = compare_describe(&r, "px", 1, 3);
	cr_assert_not_null(strstr(text, "px[1] is 9, expected 10"), "%s", text);
	cr_assert_not_null(strstr(text, "px[2] was never written, expected 3"), "%s", text);
	free(text);
}

Test(compare_types, integer_bins_added_into_before_they_were_zeroed_are_named, .timeout = 5)
{
	uint32_t p1, p2;
	memset(&p1, DTYPE_INT_POISON_BYTE, sizeof(p1));
	memset(&p2, DTYPE_SECOND_POISON_BYTE, sizeof(p2));
	uint32_t actual[3] = { p1 + 3, p1 + 5, p1 }, second[3] = { p2 + 3, p2 + 5, p2 };
	struct proto_expect e[3];
	exact_values(e, (double[]){ 3, 5, 0 }, 3);
	struct comparison r;
	compare_output(actual, second, DTYPE_UINT32, e, 3, 3, NULL, 0, &r);
	cr_assert_eq(r.wrong, 3);
	cr_assert_eq(r.updated_unset, 2);
	cr_assert_eq(r.unwritten, 1);
	char *text = compare_describe(&r, "bins", 1, 3);
	cr_assert_not_null(strstr(text, "bins[0] is 2779096488: it was updated"), "%s", text);
	cr_assert_not_null(strstr(text, "bins[2] was never written"), "%s", text);
	cr_assert_not_null(strstr(text, "zero an output before adding into it"), "%s", text);
	free(text);
}

Test(compare_types, int32_poison_is_negative_and_still_never_written, .timeout = 5)
{
	int32_t actual[1], second[1];
	memset(actual, DTYPE_INT_POISON_BYTE, sizeof(actual));
	memset(second, DTYPE_SECOND_POISON_BYTE, sizeof(second));
	cr_assert_lt(actual[0], 0);
	struct proto_expect e[1] = { { 1, 0 } };
	struct comparison r;
	compare_output(actual, second, DTYPE_INT32, e, 1, 1, NULL, 0, &r);
	cr_assert_eq(r.unwritten, 1);
	cr_assert_eq(r.not_finite, 0);
}

Test(compare_types, an_integer_copied_from_unstored_shared_memory_is_named_so, .timeout = 5)
{
	int32_t actual[2] = { (int32_t)CUDASIM_SHARED_FILL_BITS, 4 }, second[2] = { (int32_t)CUDASIM_SHARED_FILL_BITS, 4 };
	struct proto_expect e[2];
	exact_values(e, (double[]){ 1, 4 }, 2);
	struct comparison r;
	compare_output(actual, second, DTYPE_INT32, e, 2, 2, NULL, 0, &r);
	cr_assert_eq(r.unstored_shared, 1);
	char *text = compare_describe(&r, "out", 1, 2);
	cr_assert_not_null(strstr(text, "the simulator's fill of shared memory"), "%s", text);
	free(text);
}

Test(compare_types, float64_keeps_its_tolerance_and_seventeen_digits, .timeout = 5)
{
	double actual[3] = { 1.0 + 1e-12, 1.0 + 1e-8, 2 };
	struct proto_expect e[3] = { { 1, 1e-10 }, { 1, 1e-10 }, { 2, 0 } };
	struct comparison r;
	compare_output(actual, NULL, DTYPE_FLOAT64, e, 3, 3, NULL, 0, &r);
	cr_assert_eq(r.wrong, 1);
	cr_assert_eq(r.first[0].index, 1);
	char *text = compare_describe(&r, "y", 1, 3);
	cr_assert_not_null(strstr(text, "y[1] is 1.00000001, expected 1"), "%s", text);
	free(text);
}

Test(compare_types, float64_poison_and_nan, .timeout = 5)
{
	double actual[3], second[3];
	memset(actual, DTYPE_FLOAT_POISON_BYTE, sizeof(actual));
	memset(second, DTYPE_SECOND_POISON_BYTE, sizeof(second));
	second[1] = 0.25; /* updated from the second poison: a number, not it */
	actual[2] = NAN;   /* computed */
	second[2] = NAN;
	struct proto_expect e[3] = { { 1, 1e30 }, { 0.25, 1e30 }, { 1, 1e30 } };
	struct comparison r;
	compare_output(actual, second, DTYPE_FLOAT64, e, 3, 3, NULL, 0, &r);
	cr_assert_eq(r.wrong, 3, "a NaN never passes, whatever the bound");
	cr_assert_eq(r.unwritten, 1);
	cr_assert_eq(r.updated_unset, 1);
	cr_assert_eq(r.not_finite, 1);
}

Test(compare_types, every_type_round_trips_through_dtype_load, .timeout = 5)
{
	unsigned char raw[8];
	float f = -1.5f;
	double d = 1e300;
	int32_t i = -2147483647 - 1;
	uint32_t u = 4294967295u;
	memcpy(raw, &f, 4);
	cr_assert_eq(dtype_load(raw, DTYPE_FLOAT32, 0), -1.5);
	memcpy(raw, &d, 8);
	cr_assert_eq(dtype_load(raw, DTYPE_FLOAT64, 0), 1e300);
	memcpy(raw, &i, 4);
	cr_assert_eq(dtype_load(raw, DTYPE_INT32, 0), -2147483648.0);
	memcpy(raw, &u, 4);
	cr_assert_eq(dtype_load(raw, DTYPE_UINT32, 0), 4294967295.0);
	raw[3] = 200;
	cr_assert_eq(dtype_load(raw, DTYPE_UINT8, 3), 200.0);
	cr_assert_eq(dtype_size(DTYPE_FLOAT64), 8);
	cr_assert_eq(dtype_size(DTYPE_UINT8), 1);
	cr_assert_str_eq(dtype_name(DTYPE_UINT32), "uint32");
}

Test(compare, a_sample_names_the_outputs_own_elements, .timeout = 5)
{
	/* a 100 x 100 output judged on two chunks: [0, 4) and [9996, 10000) */
	struct proto_chunk chunks[2] = { { 0, 4 }, { 9996, 4 } };
	float expected[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, actual[8] = { 1, 2, 3, 4, 5, 6, 70, 8 };
	struct proto_expect e[8];
	struct comparison r;
	exact(e, expected, 8);
	compare_output(actual, NULL, DTYPE_FLOAT32, e, 8, 100, chunks, 2, &r);
	cr_assert_eq(r.wrong, 1);
	cr_assert_eq(r.first[0].index, 9998, "the sample's 7th element is the output's 9998th");
	cr_assert_eq(r.row_min, 99);
	cr_assert_eq(r.col_min, 98);
	char *text = compare_describe(&r, "c", 100, 100);
	cr_assert(strstr(text, "c[99][98] is 70"), "%s", text);
	cr_assert(strstr(text, "1 of the 8 elements checked of 10,000 wrong"), "%s", text);
	free(text);
}
