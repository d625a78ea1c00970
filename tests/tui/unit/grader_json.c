#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/tui/unit/helpers.h"
#include "tui/grader_json.h"
#include "lib/util.h"
#include "tui/workbook.h"

static char *
fixture(const char *name)
{
	char *path = xasprintf("tests/tui/fixtures/%s", name);
	char *text = read_file(path, NULL);

	cr_assert_not_null(text, "cannot read %s", path);
	free(path);
	return text;
}

Test(result, a_failing_report, .timeout = 10)
{
	char *json = fixture("grade-fail.json");
	struct result r;

	cr_assert_eq(result_parse(json, &r), 0, "%s", last_error());
	cr_assert_str_eq(r.exercise, "col_sums");
	cr_assert_str_eq(r.backend, "sim");
	cr_assert_not(r.pass);
	cr_assert_str_eq(r.stage, "correctness");
	cr_assert_eq(r.ncases, 3);
	cr_assert(r.cases[0].passed);
	cr_assert_not(r.cases[1].passed);
	cr_assert_eq(r.cases[1].mismatches, 28);
	cr_assert(strstr(r.cases[1].message, "columns 5-32"));
	cr_assert_not(r.has_timing);
	cr_assert_str_eq(r.performance, "not_measured");
	cr_assert_eq(r.ndiags, 1);
	cr_assert_str_eq(r.diags[0].kind, "race");
	result_free(&r);
	free(json);
}

Test(result, nulls_read_as_empty_strings, .timeout = 10)
{
	char *json = fixture("grade-compile.json");
	struct result r;

	cr_assert_eq(result_parse(json, &r), 0);
	cr_assert_str_eq(r.note, "");
	cr_assert_str_eq(r.stage, "compile");
	cr_assert(strstr(r.compile_output, "col_sums.cu:3:5: error"));
	cr_assert_eq(r.ncases, 0);
	result_free(&r);
	free(json);
}

Test(result, timing_numbers, .timeout = 10)
{
	char *json = fixture("grade-slow-gpu.json");
	struct result r;

	cr_assert_eq(result_parse(json, &r), 0);
	cr_assert(r.has_timing);
	cr_assert_float_eq(r.timing.median_us, 2123.7, 1e-9);
	cr_assert_float_eq(r.timing.reference_us, 819.4, 1e-9);
	cr_assert_float_eq(r.timing.threshold_ratio, 1.25, 1e-9);
	cr_assert_float_eq(r.timing.peak_gbps, 4814, 1e-9);
	result_free(&r);
	free(json);
}

Test(result, missing_timing_numbers_are_nan, .timeout = 10)
{
	struct result r;

	cr_assert_eq(result_parse("{\"verdict\":\"pass\",\"backend\":\"gpu\",\"timing\":{\"median_us\":5}}", &r), 0);
	cr_assert(r.pass);
	cr_assert(r.has_timing);
	cr_assert(isnan(r.timing.copy_us));
	cr_assert_str_eq(r.message, "");
	result_free(&r);
}

Test(result, what_is_not_a_report_is_an_error, .timeout = 10)
{
	struct result r;

	cr_assert_eq(result_parse("", &r), -1);
	cr_assert_eq(result_parse("cudalings: no such exercise", &r), -1);
	cr_assert_eq(result_parse("{\"exercise\":\"x\"}", &r), -1);
	cr_assert(strstr(last_error(), "verdict"));
}

Test(result, progress_events, .timeout = 10)
{
	struct grade_event ev;

	cr_assert_eq(event_parse("{\"event\":\"stage\",\"stage\":\"compile\",\"message\":\"compiling\"}", &ev), 0);
	cr_assert_eq(ev.type, EVENT_STAGE);
	cr_assert_str_eq(ev.stage, "compile");
	cr_assert_str_eq(ev.message, "compiling");
	event_free(&ev);
	cr_assert_eq(event_parse("{\"event\":\"case\",\"index\":2,\"count\":6,\"name\":\"31x33\",\"passed\":false}", &ev), 0);
	cr_assert_eq(ev.type, EVENT_CASE);
	cr_assert_eq(ev.index, 2);
	cr_assert_eq(ev.count, 6);
	cr_assert_str_eq(ev.name, "31x33");
	cr_assert_not(ev.passed);
	event_free(&ev);
	cr_assert_eq(event_parse("exercises/x.cu:3: error: oops", &ev), -1);
	cr_assert_eq(event_parse("{\"event\":\"later\"}", &ev), -1);
	cr_assert_eq(event_parse("{not json", &ev), -1);
}

Test(workbook, the_list, .timeout = 10)
{
	char *json = fixture("list.json");
	struct workbook wb;

	cr_assert_eq(workbook_parse(json, &wb), 0, "%s", last_error());
	/* the item without a name is left out */
	cr_assert_eq(wb.n, 3);
	cr_assert_str_eq(wb.root, "/tmp/wb");
	cr_assert_str_eq(wb.items[0].kind, "lesson");
	cr_assert_null(wb.items[0].file);
	cr_assert_str_eq(wb.items[1].file, "exercises/col_sums.cu");
	cr_assert_eq(wb.items[1].order, 2);
	cr_assert_eq(wb.items[1].nhints, 4);
	cr_assert_str_eq(wb.items[1].hints[1].when, "correctness");
	/* a bare string is a hint for any failure */
	cr_assert_eq(wb.items[2].nhints, 1);
	cr_assert_str_eq(wb.items[2].hints[0].when, "fail");
	cr_assert_eq(workbook_find(&wb, "add_demo"), 2);
	cr_assert_eq(workbook_find(&wb, "nope"), -1);
	workbook_free(&wb);
	free(json);
	cr_assert_eq(workbook_parse("{\"items\": 3}", &wb), -1);
}

Test(workbook, a_solution_the_grader_says_is_not_here_is_none, .timeout = 10)
{
	struct workbook wb;

	/* the student copy: the manifest names the file, the copy does not ship it */
	cr_assert_eq(workbook_parse("{\"workbook\": \"/w\", \"items\": ["
				    "{\"name\": \"a\", \"solution\": \"solutions/a.cu\", \"has_solution\": false},"
				    "{\"name\": \"b\", \"solution\": \"solutions/b.cu\", \"has_solution\": true},"
				    "{\"name\": \"c\", \"solution\": \"solutions/c.cu\"}]}", &wb), 0);
	cr_assert_null(wb.items[0].solution);
	cr_assert_str_eq(wb.items[1].solution, "solutions/b.cu");
	/* a grader that does not say: as named */
	cr_assert_str_eq(wb.items[2].solution, "solutions/c.cu");
	workbook_free(&wb);
}

Test(workbook, the_root_is_found_upward_or_from_the_environment, .timeout = 10)
{
	char *root = temp_dir(), *sub = path_join(root, "exercises/deep"), *found, *cwd = getcwd(NULL, 0);

	write_text(root, "workbook.json", "{}");
	make_dir(root, "exercises");
	mkdir(sub, 0777);
	unsetenv("CUDALINGS_ROOT");
	cr_assert_eq(chdir(sub), 0);
	found = workbook_find_root();
	cr_assert_not_null(found, "%s", last_error());
	cr_assert_str_eq(found, root);
	free(found);
	cr_assert_eq(chdir("/"), 0);
	cr_assert_null(workbook_find_root());
	setenv("CUDALINGS_ROOT", root, 1);
	found = workbook_find_root();
	cr_assert_str_eq(found, root);
	free(found);
	setenv("CUDALINGS_ROOT", "/nonexistent", 1);
	cr_assert_null(workbook_find_root());
	cr_assert(strstr(last_error(), "CUDALINGS_ROOT"));
	unsetenv("CUDALINGS_ROOT");
	cr_assert_eq(chdir(cwd), 0);
	free(cwd);
	free(sub);
	free(root);
}
