#include <criterion/criterion.h>

#include "rng.h"
#include "stats.h"

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
