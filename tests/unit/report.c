#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "grader/engine/report.h"
#include "grader/exercise/manifest.h"
#include "lib/util.h"

static struct exercise exercise = { .name = "transpose" };

static struct grade_result
sample_result(void)
{
	struct grade_result r;
	memset(&r, 0, sizeof(r));
	r.e = &exercise;
	r.file = "exercises/transpose.cu";
	r.backend = BACKEND_GPU;
	r.device = "NVIDIA H200";
	r.stage = STAGE_PERFORMANCE;
	r.message = "135.2 µs is 1.72× the reference";
	static struct case_result cases[2];
	memset(cases, 0, sizeof(cases));
	r.cases = cases;
	r.ncases = 2;
	strcpy(r.cases[0].name, "31x33");
	r.cases[0].ran = r.cases[0].passed = true;
	strcpy(r.cases[1].name, "4096x4096");
	r.cases[1].ran = r.cases[1].passed = r.cases[1].timed = true;
	r.performance = PERFORMANCE_FAIL;
	r.timing = (struct timing_result){ .measured = true, .median_us = 135.2, .reference_us = 78.5,
					   .threshold_us = 98.1, .ratio = 1.72, .threshold_ratio = 1.25,
					   .gbps = 993, .copy_gbps = 3735, .peak_gbps = 4800, .rounds = 20 };
	return r;
}

Test(report, json_has_every_field_of_the_contract, .timeout = 5)
{
	struct grade_result r = sample_result();
	cJSON *j = report_json(&r);
	const char *keys[] = { "exercise", "file", "backend", "device", "verdict", "stage", "message",
			       "cases", "performance", "timing", "diagnostics" };
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		cr_assert(cJSON_HasObjectItem(j, keys[i]), "missing %s", keys[i]);
	cr_assert_str_eq(cJSON_GetObjectItem(j, "verdict")->valuestring, "fail");
	cr_assert_str_eq(cJSON_GetObjectItem(j, "stage")->valuestring, "performance");
	cJSON *cases = cJSON_GetObjectItem(j, "cases");
	cr_assert_eq(cJSON_GetArraySize(cases), 2);
	const char *case_keys[] = { "name", "passed", "mismatches", "message" };
	for (size_t i = 0; i < 4; i++)
		cr_assert(cJSON_HasObjectItem(cJSON_GetArrayItem(cases, 0), case_keys[i]));
	cJSON *t = cJSON_GetObjectItem(j, "timing");
	const char *timing_keys[] = { "median_us", "threshold_us", "reference_us", "gbps", "copy_gbps" };
	for (size_t i = 0; i < 5; i++)
		cr_assert(cJSON_HasObjectItem(t, timing_keys[i]), "missing timing.%s", timing_keys[i]);
	cr_assert_float_eq(cJSON_GetObjectItem(t, "median_us")->valuedouble, 135.2, 1e-9);
	cJSON_Delete(j);
}

Test(report, a_pass_on_the_simulator_has_null_stage_and_timing, .timeout = 5)
{
	struct grade_result r = sample_result();
	r.backend = BACKEND_SIM;
	r.verdict = VERDICT_PASS;
	r.stage = STAGE_NONE;
	r.performance = PERFORMANCE_NOT_MEASURED;
	r.timing.measured = false;
	cJSON *j = report_json(&r);
	cr_assert(cJSON_IsNull(cJSON_GetObjectItem(j, "stage")));
	cr_assert(cJSON_IsNull(cJSON_GetObjectItem(j, "timing")));
	cr_assert_str_eq(cJSON_GetObjectItem(j, "backend")->valuestring, "sim");
	cr_assert_str_eq(cJSON_GetObjectItem(j, "performance")->valuestring, "not_measured");
	cJSON_Delete(j);
}

Test(report, text_names_the_stage_and_the_figures, .timeout = 5)
{
	struct grade_result r = sample_result();
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	report_text(out, &r, false);
	fclose(out);
	cr_assert(strstr(text, "FAIL  at performance: 135.2 µs is 1.72× the reference"), "%s", text);
	cr_assert(strstr(text, "case 4096x4096 (timed)"), "%s", text);
	cr_assert(strstr(text, "reference 78.5 µs"), "%s", text);
	cr_assert_null(strstr(text, "\033["), "no colour codes when colour is off");
	free(text);
}

/* What report_text prints for r, without colour. */
static char *
text_of(const struct grade_result *r)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	report_text(out, r, false);
	fclose(out);
	return text;
}

/* The text of a pass, with its standing against the physical reference and the gold solution. */
static char *
pass_text(double median_us, enum tier tier, const char *physical, double physical_us)
{
	struct grade_result r = sample_result();
	r.verdict = VERDICT_PASS;
	r.stage = STAGE_NONE;
	r.performance = PERFORMANCE_PASS;
	r.message = "all 6 cases correct";
	r.tier = tier;
	r.timing.median_us = median_us;
	r.timing.gold_us = 50.2;
	r.timing.physical = physical;
	r.timing.physical_us = physical_us;
	r.timing.limit_pct = 100 * physical_us / median_us;
	r.timing.gflops = 9067;
	return text_of(&r);
}

Test(report, a_pass_says_its_share_of_the_limit_and_its_tier, .timeout = 5)
{
	char *text = pass_text(85.3, TIER_PASS, "device-to-device copy", 49.5);
	cr_assert(strstr(text, "hardware   58% of what this GPU can do: a device-to-device copy of the bytes your "
			       "kernel must move takes 49.5 µs"), "%s", text);
	cr_assert(strstr(text, "threshold 98.1 µs\n"), "no empty parentheses after the threshold: %s", text);
	cr_assert(strstr(text, "tier       pass: the gold solution takes 50.2 µs, yours 1.70× that; within 1.1× is "
			       "near gold"), "%s", text);
	free(text);
	text = pass_text(53.0, TIER_NEAR_GOLD, "device-to-device copy", 49.5);
	cr_assert(strstr(text, "tier       near gold: within 1.1× of the gold solution (50.2 µs)"), "%s", text);
	free(text);
	text = pass_text(49.9, TIER_GOLD, "device-to-device copy", 49.5);
	cr_assert(strstr(text, "tier       gold: as fast as the gold solution (50.2 µs) or faster"), "%s", text);
	free(text);
	text = pass_text(1491.4, TIER_PASS, "cuBLAS SGEMM", 330.7);
	cr_assert(strstr(text, "hardware   22% of what this GPU can do: cuBLAS SGEMM (FP32) computes the same product "
			       "in 330.7 µs"), "%s", text);
	/* a matrix product is measured in FLOP/s, not in bytes per second */
	cr_assert(strstr(text, "9.1 TFLOP/s"), "%s", text);
	cr_assert_null(strstr(text, "of a device-to-device copy ("), "%s", text);
	free(text);
}

Test(report, a_failure_has_no_tier, .timeout = 5)
{
	struct grade_result r = sample_result();
	r.timing.gold_us = 50.2;
	r.timing.physical = "device-to-device copy";
	r.timing.physical_us = 49.5;
	r.timing.limit_pct = 36.6;
	char *text = text_of(&r);
	cr_assert(strstr(text, "hardware   37% of what this GPU can do"), "%s", text);
	cr_assert_null(strstr(text, "tier"), "%s", text);
	free(text);
}
