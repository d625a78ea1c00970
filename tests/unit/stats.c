#include <criterion/criterion.h>

#include "harness/rng.h"
#include "harness/stats.h"

Test(stats, median_of_odd_and_even_counts, .timeout = 5)
{
	double odd[5] = { 5, 1, 4, 2, 3 }, even[4] = { 4, 1, 3, 2 };
	cr_assert_float_eq(stats_median(odd, 5), 3.0, 1e-12);
	cr_assert_float_eq(stats_median(even, 4), 2.5, 1e-12);
}

Test(stats, confidence_interval_brackets_the_median_and_narrows, .timeout = 5)
{
	double a[20], b[400], lo, hi, lo2, hi2;
	for (int i = 0; i < 20; i++)
		a[i] = 1.0 + 0.01 * ((i * 7) % 20);
	for (int i = 0; i < 400; i++)
		b[i] = 1.0 + 0.01 * ((i * 7) % 20);
	double m = stats_median_ci(a, 20, &lo, &hi);
	double m2 = stats_median_ci(b, 400, &lo2, &hi2);
	cr_assert(lo <= m && m <= hi);
	cr_assert(lo2 <= m2 && m2 <= hi2);
	cr_assert_lt(hi2 - lo2, hi - lo, "more rounds must narrow the interval");
}

Test(stats, one_sample, .timeout = 5)
{
	double a[1] = { 7 }, lo, hi;
	cr_assert_float_eq(stats_median_ci(a, 1, &lo, &hi), 7.0, 1e-12);
	cr_assert_float_eq(lo, 7.0, 1e-12);
	cr_assert_float_eq(hi, 7.0, 1e-12);
}

static float
rng_float(uint64_t stream, uint64_t i)
{
	float v;
	rng_draw(DTYPE_FLOAT32, -1, 1, stream, i, &v);
	return v;
}

Test(rng, inputs_are_repeatable_random_and_in_range, .timeout = 5)
{
	uint64_t s1 = rng_stream(42, 0, 0), s2 = rng_stream(42, 0, 1), s3 = rng_stream(43, 0, 0);
	int zeros = 0, negative = 0, same_as_other_buffer = 0, same_as_other_seed = 0;
	for (uint64_t i = 0; i < 10000; i++) {
		float v = rng_float(s1, i);
		cr_assert(v >= -1.0f && v < 1.0f);
		cr_assert_eq(v, rng_float(s1, i), "the same seed must give the same input");
		zeros += v == 0.0f;
		negative += v < 0;
		same_as_other_buffer += v == rng_float(s2, i);
		same_as_other_seed += v == rng_float(s3, i);
	}
	cr_assert_lt(zeros, 3);
	cr_assert(negative > 4500 && negative < 5500, "negative: %d", negative);
	cr_assert_lt(same_as_other_buffer, 5);
	cr_assert_lt(same_as_other_seed, 5);
}

/* ------------------------------------------------------------ inputs of every type */

Test(rng, float32_default_is_the_same_draw_as_before_types, .timeout = 5)
{
	uint64_t s = rng_stream(7, 3, 1);
	for (uint64_t i = 0; i < 1000; i++) {
		uint64_t x = rng_mix(s + i * 0xd1b54a32d192ed03ull);
		float before = (float)((double)(x >> 40) * (1.0 / 8388608.0) - 1.0);
		cr_assert_eq(rng_float(s, i), before, "element %llu", (unsigned long long)i);
	}
}

Test(rng, integers_cover_their_range_inclusive_and_nothing_else, .timeout = 5)
{
	uint64_t s = rng_stream(1, 0, 0);
	int seen[256] = { 0 };
	for (uint64_t i = 0; i < 20000; i++) {
		uint8_t px;
		rng_draw(DTYPE_UINT8, 0, 255, s, i, &px);
		seen[px]++;
		int32_t key;
		rng_draw(DTYPE_INT32, -3, 3, s, i, &key);
		cr_assert(key >= -3 && key <= 3, "key %d", key);
		uint32_t u;
		rng_draw(DTYPE_UINT32, 4294967290.0, 4294967295.0, s, i, &u);
		cr_assert(u >= 4294967290u, "u %u", u);
	}
	for (int v = 0; v < 256; v++)
		cr_assert_gt(seen[v], 20, "uint8 %d drawn %d times", v, seen[v]);
}

Test(rng, whole_type_ranges_reach_both_ends_of_32_bits, .timeout = 5)
{
	uint64_t s = rng_stream(2, 0, 0);
	int negative = 0, high = 0;
	for (uint64_t i = 0; i < 4000; i++) {
		int32_t v;
		uint32_t u;
		rng_draw(DTYPE_INT32, dtype_min(DTYPE_INT32), dtype_max(DTYPE_INT32), s, i, &v);
		rng_draw(DTYPE_UINT32, dtype_min(DTYPE_UINT32), dtype_max(DTYPE_UINT32), s, i, &u);
		negative += v < -1000000000;
		high += u > 3000000000u;
	}
	cr_assert(negative > 900 && negative < 1250, "%d", negative); /* 26.7% */
	cr_assert(high > 1030 && high < 1380, "%d", high); /* 30.2% */
}

Test(rng, float64_has_more_than_float32_bits_and_stays_in_range, .timeout = 5)
{
	uint64_t s = rng_stream(3, 1, 2);
	int beyond_float = 0;
	for (uint64_t i = 0; i < 1000; i++) {
		double v;
		rng_draw(DTYPE_FLOAT64, 10, 20, s, i, &v);
		cr_assert(v >= 10 && v <= 20, "%g", v);
		beyond_float += (double)(float)v != v;
	}
	cr_assert_gt(beyond_float, 990);
}
