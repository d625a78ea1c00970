/* The timing verdict, with synthetic timings. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "grader/engine/verdict.h"
#include "grader/exercise/manifest.h"

static struct gpu_threshold table[] = { { "NVIDIA H200", 80.0 } };
static struct exercise exercise = { .name = "transpose", .threshold_ratio = 1.25 };
static struct proto_case_info memory_bound = { .bytes = 2.0 * 4096 * 4096 * 4, .flops = 0 };
static struct proto_case_info compute_bound = { .bytes = 4.0 * (5120 * 256 * 2 + 5120.0 * 5120),
						 .flops = 2.0 * 5120 * 256 * 5120 };
static struct proto_device h100 = { .name = "NVIDIA H100 80GB HBM3", .mem_clock_khz = 2619000, .bus_width_bits = 5120 };
static struct proto_device h200 = { .name = "NVIDIA H200" };

static void
release(struct grade_result *r)
{
	free(r->message);
	for (int i = 0; i < r->ndiagnostics; i++) {
		free(r->diagnostics[i].kind);
		free(r->diagnostics[i].message);
	}
	free(r->timing.noise);
}

static struct grade_result
judged(const struct exercise *e, struct proto_timing m, const struct proto_case_info *info,
       const struct proto_device *d)
{
	struct grade_result r;
	memset(&r, 0, sizeof(r));
	verdict_timing(&r, e, &m, info, d);
	return r;
}

Test(verdict, within_the_ratio_passes, .timeout = 5)
{
	struct proto_timing m = { .student_us = 90, .reference_us = 80, .copy_us = 40, .ratio = 1.12, .wall_us = 100 };
	struct grade_result r = judged(&exercise, m, &memory_bound, &h100);
	cr_assert_eq(r.performance, PERFORMANCE_PASS);
	cr_assert_eq(r.stage, STAGE_NONE);
	cr_assert_float_eq(r.timing.threshold_us, 100.0, 1e-9);
	cr_assert(r.timing.gbps > 0);
}

Test(verdict, past_the_ratio_fails_with_both_times, .timeout = 5)
{
	struct proto_timing m = { .student_us = 135, .reference_us = 78, .copy_us = 40, .ratio = 1.72, .wall_us = 140 };
	struct grade_result r = judged(&exercise, m, &memory_bound, &h100);
	cr_assert_eq(r.performance, PERFORMANCE_FAIL);
	cr_assert_eq(r.stage, STAGE_PERFORMANCE);
	cr_assert_not_null(strstr(r.message, "1.72×"));
	cr_assert_not_null(strstr(r.message, "78.0 µs"));
	release(&r);
}

Test(verdict, a_slowed_gpu_is_named_with_the_failure, .timeout = 5)
{
	struct proto_timing m = { .student_us = 135, .reference_us = 78, .copy_us = 40, .ratio = 1.72, .wall_us = 140,
				  .measurements = 3, .clocks_known = 1, .sm_mhz_first = 1980, .sm_mhz_last = 1410,
				  .sm_mhz_low = 1410, .sm_mhz_high = 1980,
				  .slowdowns = PROTO_SLOWDOWN_POWER_CAP | PROTO_SLOWDOWN_HW_THERMAL };
	struct grade_result r = judged(&exercise, m, &memory_bound, &h100);
	cr_assert_eq(r.stage, STAGE_PERFORMANCE);
	cr_assert_not_null(strstr(r.message, "slowed itself down while timing (its power cap, heat (hardware))"),
			   "%s", r.message);
	cr_assert_not_null(strstr(r.message, "moved between 1410 and 1980 MHz"), "%s", r.message);
	cr_assert_not_null(strstr(r.message, "measured 3 times"), "%s", r.message);
	release(&r);
	/* steady clocks and no slowdown: nothing is said; without NVML, nothing is known */
	m.slowdowns = 0;
	m.sm_mhz_low = m.sm_mhz_high = m.sm_mhz_last = 1980;
	r = judged(&exercise, m, &memory_bound, &h100);
	cr_assert_null(r.timing.noise);
	release(&r);
	m.clocks_known = 0;
	m.slowdowns = PROTO_SLOWDOWN_POWER_CAP;
	r = judged(&exercise, m, &memory_bound, &h100);
	cr_assert_null(r.timing.noise);
	release(&r);
}

Test(verdict, a_course_table_for_this_gpu_replaces_the_ratio, .timeout = 5)
{
	struct exercise e = exercise;
	e.absolute = table;
	e.nabsolute = 1;
	/* 1.5× the reference but under the course's 80 µs: passes on that GPU */
	struct proto_timing m = { .student_us = 75, .reference_us = 50, .copy_us = 30, .ratio = 1.5, .wall_us = 80 };
	struct grade_result r = judged(&e, m, &memory_bound, &h200);
	cr_assert_eq(r.performance, PERFORMANCE_PASS);
	cr_assert(r.timing.absolute);
	m.student_us = 85;
	m.ratio = 1.1;
	r = judged(&e, m, &memory_bound, &h200);
	cr_assert_eq(r.performance, PERFORMANCE_FAIL);
	cr_assert_not_null(strstr(r.message, "80.0 µs this course asks for on NVIDIA H200"));
	release(&r);
}

Test(verdict, faster_than_copying_the_bytes_is_not_believed, .timeout = 5)
{
	struct proto_timing m = { .student_us = 10, .reference_us = 80, .copy_us = 40, .ratio = 0.12, .wall_us = 12 };
	struct grade_result r = judged(&exercise, m, &memory_bound, &h100);
	cr_assert_eq(r.stage, STAGE_PERFORMANCE);
	cr_assert_not_null(strstr(r.message, "faster than copying"));
	release(&r);
}

Test(verdict, a_kernel_faster_than_the_copy_engine_is_believed, .timeout = 5)
{
	/* matrix_add's gold ran at 0.89 of a device-to-device copy's time on an H100; peak bandwidth is 0.70 */
	struct proto_timing m = { .student_us = 28, .reference_us = 40, .copy_us = 40, .ratio = 0.7, .wall_us = 30 };
	struct grade_result r = judged(&exercise, m, &memory_bound, &h100);
	cr_assert_eq(r.performance, PERFORMANCE_PASS, "%s", r.message ? r.message : "");
	release(&r);
}

Test(verdict, many_flops_per_byte_do_not_excuse_beating_a_copy, .timeout = 5)
{
	struct proto_timing m = { .student_us = 5, .reference_us = 1500, .copy_us = 20, .ratio = 0.003, .wall_us = 6 };
	struct grade_result r = judged(&exercise, m, &compute_bound, &h100);
	cr_assert_eq(r.stage, STAGE_PERFORMANCE);
	release(&r);
}

Test(verdict, host_time_off_the_gpus_clock_fails, .timeout = 5)
{
	struct proto_timing m = { .student_us = 60, .reference_us = 80, .copy_us = 40, .ratio = 0.75, .wall_us = 5000 };
	struct grade_result r = judged(&exercise, m, &memory_bound, &h100);
	cr_assert_eq(r.stage, STAGE_PERFORMANCE);
	cr_assert_not_null(strstr(r.message, "outside the timed launch"));
	release(&r);
}

Test(verdict, hints_are_found_by_what_they_answer, .timeout = 5)
{
	struct exercise_hint hints[] = { { "performance", "time" }, { "race", "barrier" } };
	struct exercise e = exercise;
	e.hints = hints;
	e.nhints = 2;
	cr_assert_str_eq(verdict_hint(&e, "race"), "barrier");
	cr_assert_str_eq(verdict_hint(&e, "performance"), "time");
	cr_assert_null(verdict_hint(&e, "compile"));
	cr_assert_null(verdict_hint(&e, NULL));
}

/* A `when` has its hints in tiers (a question, the idea, the line): the grader gives the first. */
Test(verdict, the_first_tier_of_a_when_is_the_hint, .timeout = 5)
{
	struct exercise_hint hints[] = { { "race", "which threads?" }, { "race", "a barrier" }, { "race", "__syncthreads()" },
				{ "performance", "which addresses?" }, { "performance", "neighbours" } };
	struct exercise e = exercise;
	e.hints = hints;
	e.nhints = 5;
	cr_assert_str_eq(verdict_hint(&e, "race"), "which threads?");
	cr_assert_str_eq(verdict_hint(&e, "performance"), "which addresses?");
}

/* A compile that failed: the first error is the message; a missing launcher is named with its signature. */
Test(verdict, a_compile_error_is_told_by_its_first_error_line, .timeout = 5)
{
	struct exercise e = { .name = "transpose", .launcher_name = "transpose_launch",
			      .launcher = "void transpose_launch(const float *in, float *out, int rows, int cols)" };
	struct grade_result r;
	memset(&r, 0, sizeof(r));
	r.file = "exercises/transpose.cu";
	verdict_compile_failed(&r, &e, strdup("exercises/transpose.cu: In function 'k':\n"
					     "exercises/transpose.cu:12: error: 'tile' was not declared\n"
					     "exercises/transpose.cu:13: error: second\n"));
	cr_assert_eq(r.verdict, VERDICT_FAIL);
	cr_assert_eq(r.stage, STAGE_COMPILE);
	cr_assert_str_eq(r.message, "exercises/transpose.cu does not compile: exercises/transpose.cu:12: error: 'tile' "
				    "was not declared");
	free(r.message);
	r.message = NULL;
	verdict_compile_failed(&r, &e, strdup("/usr/bin/ld: main.o: undefined reference to `transpose_launch'\n"));
	cr_assert(strstr(r.message, "does not define transpose_launch with the exercise's signature: void "
				    "transpose_launch(const float *in"), "%s", r.message);
	free(r.message);
	r.message = NULL;
	verdict_compile_failed(&r, &e, strdup("nvcc died\n"));
	cr_assert_str_eq(r.message, "exercises/transpose.cu does not compile");
	free(r.message);
	free(r.compile_output);
}

/* A kernel as fast as the gold, measured in the same rounds, is gold whichever median came out lower. */
Test(verdict, within_the_noise_of_the_gold_is_gold, .timeout = 5)
{
	/* the ratio to the reference known to ±1.5%: 49.2 against the gold's 48.8 µs is 0.8% slower */
	struct timing_result t = { .measured = true, .median_us = 49.2, .gold_us = 48.8, .ratio = 0.90,
				   .ratio_lo = 0.90 / 1.015, .ratio_hi = 0.90 * 1.015 };
	cr_assert_eq(verdict_tier(&t), TIER_GOLD);
	/* the interval's wider side counts */
	t.ratio_lo = 0.899;
	cr_assert_eq(verdict_tier(&t), TIER_GOLD);
	/* 3.5% slower than the gold, beyond a 1.5% noise on each median: near gold */
	t.ratio_hi = 0.90 * 1.015;
	t.median_us = 48.8 * 1.035;
	cr_assert_eq(verdict_tier(&t), TIER_NEAR_GOLD);
	/* faster than the gold is gold */
	t.median_us = 40;
	cr_assert_eq(verdict_tier(&t), TIER_GOLD);
}

Test(verdict, a_tight_interval_still_allows_the_least_noise, .timeout = 5)
{
	/* an interval narrower than 1% (or none reported) stands for 1%, on each of the two medians */
	struct timing_result t = { .measured = true, .median_us = 49.25, .gold_us = 49.2, .ratio = 1.0,
				   .ratio_lo = 0.9995, .ratio_hi = 1.0005 };
	cr_assert_float_eq(verdict_tier_noise(&t), TIER_NOISE_MIN, 1e-12);
	cr_assert_eq(verdict_tier(&t), TIER_GOLD);
	t.ratio_lo = t.ratio_hi = 0;
	cr_assert_eq(verdict_tier(&t), TIER_GOLD);
	t.median_us = 49.2 * 1.019;
	cr_assert_eq(verdict_tier(&t), TIER_GOLD);
	t.median_us = 49.2 * 1.021;
	cr_assert_eq(verdict_tier(&t), TIER_NEAR_GOLD);
}

Test(verdict, near_gold_and_pass_keep_their_bounds_widened_by_the_noise, .timeout = 5)
{
	struct timing_result t = { .measured = true, .gold_us = 100, .ratio = 1.0, .ratio_lo = 0.95, .ratio_hi = 1.05 };
	/* noise 1/0.95 - 1 = 5.3%, twice: gold up to 110.5 µs, near gold up to 1.1 × that (121.6) */
	t.median_us = 110;
	cr_assert_eq(verdict_tier(&t), TIER_GOLD);
	t.median_us = 121;
	cr_assert_eq(verdict_tier(&t), TIER_NEAR_GOLD);
	t.median_us = 122;
	cr_assert_eq(verdict_tier(&t), TIER_PASS);
	/* no gold solution: a plain pass */
	t.gold_us = 0;
	t.median_us = 1;
	cr_assert_eq(verdict_tier(&t), TIER_PASS);
}
