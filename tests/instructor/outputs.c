/*
 * Unit tests of the instructor's modules: the gradebook's CSV, the
 * Gradescope results of a grade JSON, workbook.json's printer and the
 * names `cudalings new` takes. The walk (walk.sh) runs them end to end.
 */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "grader/batch/batch.h"
#include "grader/batch/batch_rows.h"
#include "common/json.h"
#include "grader/exercise/scaffold.h"

/* An exercise of two correctness cases (1 and 33) and a timed one. */
static struct exercise
two_cases(void)
{
	struct exercise e = { .name = "scale", .ndims = 1, .ncases = 2, .has_timed = true };
	e.cases[0][0] = 1;
	e.cases[1][0] = 33;
	e.timed[0] = 1 << 20;
	return e;
}

static cJSON *
parse(const char *text)
{
	cJSON *j = cJSON_Parse(text);
	cr_assert_not_null(j, "bad test JSON: %s", text);
	return j;
}

static const cJSON *
test_named(const cJSON *results, const char *name)
{
	const cJSON *t;
	cJSON_ArrayForEach(t, cJSON_GetObjectItem(results, "tests"))
		if (!strcmp(cJSON_GetObjectItem(t, "name")->valuestring, name))
			return t;
	cr_assert_fail("no test named '%s'", name);
	return NULL;
}

static const char *
status_of(const cJSON *results, const char *name)
{
	return cJSON_GetObjectItem(test_named(results, name), "status")->valuestring;
}

Test(gradebook, quotes_a_field_with_commas_quotes_and_newlines, .timeout = 5)
{
	struct exercise e = two_cases();
	cJSON *g = parse("{\"backend\": \"sim\", \"verdict\": \"fail\", \"stage\": \"compile\", "
			 "\"message\": \"a.cu:1: error: expected ';', got \\\"x\\\"\\nnext line\", \"cases\": []}");
	char *row = batch_csv_row(&e, "gus, \"the fast one\"", g);
	cr_assert_str_eq(row, "\"gus, \"\"the fast one\"\"\",fail,compile,0,3,,,"
			      "\"a.cu:1: error: expected ';', got \"\"x\"\"\nnext line\",yes,\r\n");
	free(row);
	cJSON_Delete(g);
}

Test(gradebook, counts_the_timed_case_once_and_prints_the_time, .timeout = 5)
{
	struct exercise e = two_cases();
	cJSON *g = parse("{\"backend\": \"gpu\", \"verdict\": \"pass\", \"stage\": null, \"message\": \"ok\", "
			 "\"cases\": [{\"name\": \"1\", \"timed\": false, \"passed\": true},"
			 " {\"name\": \"33\", \"timed\": false, \"passed\": true},"
			 " {\"name\": \"1048576\", \"timed\": true, \"passed\": true},"
			 " {\"name\": \"1048576, inputs 2\", \"timed\": true, \"passed\": true}],"
			 "\"timing\": {\"median_us\": 84.321, \"ratio\": 1.0333}}");
	char *row = batch_csv_row(&e, "ann", g);
	cr_assert_str_eq(row, "ann,pass,,3,3,84.32,1.033,ok,yes,\r\n");
	free(row);
	cJSON_Delete(g);
}

Test(gradescope, a_compile_failure_fails_every_case_as_not_run, .timeout = 5)
{
	struct exercise e = two_cases();
	cJSON *g = parse("{\"backend\": \"sim\", \"verdict\": \"fail\", \"stage\": \"compile\", "
			 "\"message\": \"does not compile\", \"compile_output\": \"a.cu:3: error\", \"cases\": [], "
			 "\"timing\": null}");
	cJSON *r = batch_gradescope(&e, g, 2.4);
	cr_assert_eq(cJSON_GetObjectItem(r, "score")->valuedouble, 0);
	cr_assert_eq(cJSON_GetObjectItem(r, "execution_time")->valuedouble, 2);
	cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(r, "tests")), 4,
		     "compile, two cases and the measured copy of the timed one on the simulator");
	cr_assert_str_eq(status_of(r, "compile"), "failed");
	cr_assert(strstr(cJSON_GetObjectItem(test_named(r, "compile"), "output")->valuestring, "a.cu:3: error"));
	cr_assert(strstr(cJSON_GetObjectItem(test_named(r, "case 33"), "output")->valuestring, "not run"));
	const cJSON *board = cJSON_GetObjectItem(r, "leaderboard");
	cr_assert_eq(cJSON_GetArraySize(board), 1, "no time on the leaderboard when none was measured");
	cJSON_Delete(r);
	cJSON_Delete(g);
}

Test(gradescope, a_second_timed_input_set_that_fails_fails_the_timed_case, .timeout = 5)
{
	struct exercise e = two_cases();
	cJSON *g = parse("{\"backend\": \"gpu\", \"verdict\": \"fail\", \"stage\": \"correctness\", "
			 "\"message\": \"wrong\", \"performance\": \"not_measured\", "
			 "\"cases\": [{\"name\": \"1\", \"timed\": false, \"passed\": true},"
			 " {\"name\": \"33\", \"timed\": false, \"passed\": true},"
			 " {\"name\": \"1048576\", \"timed\": true, \"passed\": true},"
			 " {\"name\": \"1048576, inputs 2\", \"timed\": true, \"passed\": false, \"message\": \"out[7] is 0\"}],"
			 "\"timing\": null}");
	cJSON *r = batch_gradescope(&e, g, -1);
	cr_assert_null(cJSON_GetObjectItem(r, "execution_time"));
	cr_assert_str_eq(status_of(r, "case 1048576 (timed)"), "failed");
	cr_assert_str_eq(cJSON_GetObjectItem(test_named(r, "case 1048576 (timed)"), "output")->valuestring,
			 "out[7] is 0");
	cr_assert_str_eq(status_of(r, "performance"), "failed");
	cr_assert_eq(cJSON_GetObjectItem(r, "score")->valuedouble, 3, "compile and the two correctness cases");
	cJSON_Delete(r);
	cJSON_Delete(g);
}

Test(gradescope, a_pass_on_a_gpu_scores_everything_and_ranks_its_time, .timeout = 5)
{
	struct exercise e = two_cases();
	cJSON *g = parse("{\"backend\": \"gpu\", \"verdict\": \"pass\", \"stage\": null, \"message\": \"ok\", "
			 "\"performance\": \"pass\", "
			 "\"cases\": [{\"name\": \"1\", \"timed\": false, \"passed\": true},"
			 " {\"name\": \"33\", \"timed\": false, \"passed\": true},"
			 " {\"name\": \"1048576\", \"timed\": true, \"passed\": true}],"
			 "\"timing\": {\"median_us\": 84.5, \"ratio\": 1.03, \"reference_us\": 82, \"threshold_ratio\": 1.25}}");
	cJSON *r = batch_gradescope(&e, g, 10);
	cr_assert_eq(cJSON_GetObjectItem(r, "score")->valuedouble, 5);
	cr_assert_str_eq(status_of(r, "performance"), "passed");
	const cJSON *time = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "leaderboard"), 1);
	cr_assert_not_null(time);
	cr_assert_eq(cJSON_GetObjectItem(time, "value")->valuedouble, 84.5);
	cr_assert_str_eq(cJSON_GetObjectItem(time, "order")->valuestring, "asc");
	cJSON_Delete(r);
	cJSON_Delete(g);
}

Test(workbook, printing_keeps_the_hand_written_layout, .timeout = 5)
{
	const char *text =
		"{\n"
		"  \"title\": \"t\",\n"
		"  \"items\": [\n"
		"    {\n"
		"      \"name\": \"a\",\n"
		"      \"dims\": [\"rows\", \"cols\"],\n"
		"      \"cases\": [[1, 1], [31, 33]],\n"
		"      \"timed\": [16777216],\n"
		"      \"tolerance\": { \"rtol\": 1e-5, \"atol\": 0.25 },\n"
		"      \"absolute_us\": {},\n"
		"      \"hints\": [\n"
		"        { \"when\": \"compile\", \"text\": \"say \\\"why\\\": 2 × 3 ≥ 5\" }\n"
		"      ]\n"
		"    }\n"
		"  ]\n"
		"}\n";
	cJSON *j = parse(text);
	char *printed = scaffold_print_workbook(j);
	cr_assert_str_eq(printed, text);
	free(printed);
	cJSON_Delete(j);
}

Test(scaffold, names_are_c_identifiers_in_lower_case, .timeout = 5)
{
	cr_assert(scaffold_valid_name("scale"));
	cr_assert(scaffold_valid_name("matmul_2d"));
	cr_assert_not(scaffold_valid_name(""));
	cr_assert_not(scaffold_valid_name("2d_scale"));
	cr_assert_not(scaffold_valid_name("_scale"));
	cr_assert_not(scaffold_valid_name("Scale"));
	cr_assert_not(scaffold_valid_name("../scale"));
	cr_assert_not(scaffold_valid_name("scale-it"));
	cr_assert_not(scaffold_valid_name("a_name_that_is_far_too_long_for_a_c_name_x"));
}

/* Debian's cJSON 1.7.15 refuses cJSON_InsertItemInArray in the middle of a parsed array. */
static void
assert_inserted(const char *array, int at, const char *want)
{
	cJSON *a = parse(array), *n = cJSON_CreateNumber(9);
	cr_assert(json_insert(a, at, n), "json_insert(%s, %d) failed", array, at);
	char *got = cJSON_PrintUnformatted(a);
	cr_assert_str_eq(got, want);
	free(got);
	cJSON_Delete(a);
}

Test(json, inserts_first_in_the_middle_and_last_of_a_parsed_array, .timeout = 5)
{
	assert_inserted("[1,2,3]", 0, "[9,1,2,3]");
	assert_inserted("[1,2,3]", 1, "[1,9,2,3]");
	assert_inserted("[1,2,3]", 2, "[1,2,9,3]");
	assert_inserted("[1,2,3]", 3, "[1,2,3,9]");
	assert_inserted("[1,2,3]", 7, "[1,2,3,9]");
	assert_inserted("[]", 0, "[9]");
}

Test(json, an_insert_into_what_is_not_an_array_fails_and_leaves_the_item_yours, .timeout = 5)
{
	cJSON *o = parse("{\"a\": 1}"), *n = cJSON_CreateNumber(9);
	cr_assert_not(json_insert(o, 0, n));
	cr_assert_not(json_insert(NULL, 0, n));
	cr_assert_eq(cJSON_GetArraySize(o), 1);
	cJSON_Delete(n);
	cJSON_Delete(o);
}

Test(gradebook, flags_say_refused_link_late_and_resubmitted, .timeout = 5)
{
	struct exercise e = two_cases();
	cJSON *g = parse("{\"backend\": \"sim\", \"verdict\": \"fail\", \"stage\": \"compile\", \"message\": \"no\", "
			 "\"cases\": [], \"diagnostics\": [{\"kind\": \"refused\", \"message\": \"includes x\"}], "
			 "\"batch\": {\"final\": true, \"late\": true, \"resubmitted\": true}}");
	char *row = batch_csv_row(&e, "ann", g);
	cr_assert_str_eq(row, "ann,fail,compile,0,3,,,no,yes,refused late resubmitted\r\n");
	free(row);
	cJSON_Delete(g);
	g = parse("{\"verdict\": \"fail\", \"stage\": \"submission\", \"message\": \"a link\", \"cases\": [], "
		  "\"batch\": {\"final\": true, \"link\": true}}");
	char *flags = batch_row_flags(g);
	cr_assert_str_eq(flags, "link");
	free(flags);
	cJSON_Delete(g);
}

Test(names, columns_count_characters_and_invalid_bytes_are_escaped, .timeout = 5)
{
	cr_assert_eq(utf8_columns("jerome"), 6);
	cr_assert_eq(utf8_columns("j\xc3\xa9r\xc3\xb4me"), 6, "jérôme is six columns, eight bytes");
	cr_assert_null(utf8_escape_invalid("j\xc3\xa9r\xc3\xb4me"), "valid UTF-8 is left alone");
	char *e = utf8_escape_invalid("j\xe9r\xf4me");
	cr_assert_str_eq(e, "j\\xE9r\\xF4me");
	free(e);
	e = utf8_escape_invalid("\xed\xa0\x80 \xf4\x90\x80\x80 \xc0\xaf"); /* a surrogate, past U+10FFFF, overlong */
	cr_assert_str_eq(e, "\\xED\\xA0\\x80 \\xF4\\x90\\x80\\x80 \\xC0\\xAF");
	free(e);
}
