#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tui/unit/helpers.h"
#include "tui/report.h"
#include "lib/util.h"
#include "tui/workbook.h"

static struct workbook wb;
static struct result res;

static void
load(const char *fixture)
{
	char *list = read_file(FIXTURE("list.json"), NULL);
	char *path = xasprintf("tests/tui/fixtures/%s", fixture);
	char *json = read_file(path, NULL);

	cr_assert_eq(workbook_parse(list, &wb), 0);
	cr_assert_eq(result_parse(json, &res), 0);
	res.exit_status = res.pass ? 0 : 1;
	free(list);
	free(path);
	free(json);
}

static int
count(const char *s, const char *glyph)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, glyph)); p += strlen(glyph))
		n++;
	return n;
}

Test(report, a_failure_shows_cases_diagnostics_and_hints_for_its_stage, .timeout = 10)
{
	struct doc d;
	int i;

	load("grade-fail.json");
	doc_init(&d, false);
	report_render(&d, &wb.items[1], &res, 2, NULL, 70);
	cr_assert_str_eq(line_text(&d, 0), "✗ Column sums fails at correctness");
	cr_assert_eq(S_CLASS(d.lines[0].spans[0].style), S_FAIL);
	cr_assert(find_line(&d, "2 of 3 cases wrong") > 0);
	cr_assert(find_line(&d, "no GPU: correctness checked") > 0);
	cr_assert(find_line(&d, "(1 of 3 passed)") > 0);
	cr_assert(find_line(&d, "✓ 1x1") > 0);
	i = find_line(&d, "✗ 31x33");
	cr_assert(i > 0);
	cr_assert_str_eq(line_text(&d, i + 1), "      sums[5] is 0.0, expected 31.0 (28 of 33 wrong: columns 5-32)");
	cr_assert(find_line(&d, "race: threads 0 and 32") > 0);
	/* correctness and fail hints fit; compile and performance ones do not */
	cr_assert(find_line(&d, "(2 of 2)") > 0, "hints header");
	cr_assert(find_line(&d, "1. One thread per column.") > 0);
	cr_assert(find_line(&d, "2. Check the bounds.") > 0);
	cr_assert_eq(find_line(&d, "Read the first error"), -1);
	cr_assert_eq(find_line(&d, "Coalesce"), -1);
	cr_assert(find_line(&d, "That was the last hint.") > 0);
	doc_free(&d);
	result_free(&res);
	workbook_free(&wb);
}

Test(report, hints_come_one_at_a_time, .timeout = 10)
{
	struct doc d;

	load("grade-fail.json");
	/* with no message of the grader's, the count is said */
	res.cases[2].message[0] = '\0';
	doc_init(&d, false);
	report_render(&d, &wb.items[1], &res, 1, NULL, 70);
	cr_assert_str_eq(line_text(&d, find_line(&d, "✗ 1000x1") + 1), "      1 wrong");
	cr_assert(find_line(&d, "(1 of 2)") > 0);
	cr_assert(find_line(&d, "1. One thread per column.") > 0);
	cr_assert_eq(find_line(&d, "Check the bounds"), -1);
	cr_assert(find_line(&d, "Press h for the next hint.") > 0);
	doc_free(&d);
	doc_init(&d, false);
	report_render(&d, &wb.items[1], &res, 0, NULL, 70);
	cr_assert(find_line(&d, "2 hints, from a question to the line to write: press h for the first.") > 0);
	cr_assert_eq(find_line(&d, "1. "), -1);
	doc_free(&d);
	result_free(&res);
	workbook_free(&wb);
}

Test(report, compile_errors_show_the_line_they_name, .timeout = 10)
{
	struct doc d;
	int i;

	load("grade-compile.json");
	doc_init(&d, false);
	report_render(&d, &wb.items[1], &res, 0, "line one\nline two\n    sum += 1;\nlast\n", 70);
	cr_assert_str_eq(line_text(&d, 0), "✗ Column sums fails at compile");
	i = find_line(&d, "col_sums.cu:3:5: error: 'sum' was not declared");
	cr_assert(i > 0);
	cr_assert_eq(S_CLASS(style_of(&d, i, "error")), S_ERROR);
	/* the compiler's own picture is kept: the caret stays under the word */
	cr_assert(find_line(&d, "      3 |     sum += 1;") > i);
	cr_assert(find_line(&d, "        |     ^~~") > i);
	/* and as it shows the source itself, we do not */
	cr_assert_eq(find_line(&d, "3 │"), -1);
	i = find_line(&d, "warning: unused variable");
	cr_assert_eq(S_CLASS(style_of(&d, i, "warning")), S_WARN);
	doc_free(&d);
	result_free(&res);
	workbook_free(&wb);
}

Test(report, without_the_compilers_picture_the_line_is_shown, .timeout = 10)
{
	struct doc d;

	load("grade-compile.json");
	free(res.compile_output);
	res.compile_output = xstrdup("exercises/col_sums.cu(3): error: identifier \"sum\" is undefined\n"
				     "exercises/col_sums.cu:3:5: error: 'sum' was not declared\n");
	doc_init(&d, false);
	report_render(&d, &wb.items[1], &res, 0, "line one\nline two\n    sum += 1;\nlast\n", 70);
	cr_assert(find_line(&d, "      3 │     sum += 1;") > find_line(&d, "3:5: error"));
	doc_free(&d);
	result_free(&res);
	workbook_free(&wb);
}

Test(report, timing_bars_are_to_scale, .timeout = 10)
{
	struct doc d;
	int yours, limit, ref, copy;

	load("grade-slow-gpu.json");
	doc_init(&d, false);
	report_render(&d, &wb.items[1], &res, 0, NULL, 77);
	yours = find_line(&d, "  yours ");
	limit = find_line(&d, "  threshold ");
	ref = find_line(&d, "  reference ");
	copy = find_line(&d, "  copy ");
	cr_assert(yours > 0 && limit > yours && ref > limit && copy > ref);
	cr_assert(strstr(line_text(&d, yours), "2123.7 µs  too slow"));
	cr_assert_eq(S_CLASS(style_of(&d, yours, "█")), S_BAR_BAD);
	/* the longest bar is the slowest time; 819.4/2123.7 of it is the reference */
	{
		int ny = count(line_text(&d, yours), "█"), nr = count(line_text(&d, ref), "█");

		cr_assert_eq(nr, (int)(819.4 / 2123.7 * ny + 0.5));
		cr_assert_gt(count(line_text(&d, limit), "█"), nr);
		cr_assert_lt(count(line_text(&d, copy), "█"), nr);
	}
	cr_assert(find_line(&d, "2.59× the reference (the threshold is 1.25×); 506 GB/s, 14% of a copy") > 0);
	for (int i = 0; i < d.n; i++)
		cr_assert_leq(doc_line_width(&d.lines[i]), 77, "line %d: %s", i, line_text(&d, i));
	doc_free(&d);
	result_free(&res);
	workbook_free(&wb);
}

Test(report, a_pass_on_the_simulator, .timeout = 10)
{
	struct doc d;

	load("grade-pass-sim.json");
	doc_init(&d, false);
	report_render(&d, &wb.items[1], &res, 3, NULL, 70);
	cr_assert_str_eq(line_text(&d, 0), "✓ Column sums is correct on the simulator");
	cr_assert_eq(find_line(&d, "Hints"), -1);
	doc_free(&d);
	result_free(&res);
	workbook_free(&wb);
}

Test(report, a_headline_wider_than_the_page_is_wrapped_whole, .timeout = 10)
{
	struct doc d;
	char *title;

	load("grade-pass-sim.json");
	/* the real workbook's longest: at 80 columns (77 of text) it was cut at "simulat" */
	title = wb.items[1].title;
	wb.items[1].title = xstrdup("The assessment: a transpose without bank conflicts");
	doc_init(&d, false);
	report_render(&d, &wb.items[1], &res, 3, NULL, 77);
	cr_assert_str_eq(line_text(&d, 0), "✓ The assessment: a transpose without bank conflicts is correct on the");
	cr_assert_str_eq(line_text(&d, 1), "  simulator");
	doc_free(&d);
	free(wb.items[1].title);
	wb.items[1].title = title;
	result_free(&res);
	workbook_free(&wb);
}

Test(report, a_kept_verdict_says_whether_it_still_speaks_of_the_file, .timeout = 10)
{
	struct doc d;

	load("grade-pass-sim.json");
	res.earlier = true;
	doc_init(&d, false);
	report_render(&d, &wb.items[1], &res, 3, NULL, 70);
	cr_assert(find_line(&d, "  graded in an earlier session: c grades it again") > 0);
	doc_free(&d);
	/* edited since: that, and not when */
	res.changed = true;
	doc_init(&d, false);
	report_render(&d, &wb.items[1], &res, 3, NULL, 70);
	cr_assert(find_line(&d, "  changed since graded: c grades it again") > 0);
	cr_assert_eq(find_line(&d, "earlier session"), -1);
	doc_free(&d);
	/* saved during this session (a make grade beside the workbook): when, and no "earlier session" */
	res.changed = false;
	res.earlier = false;
	res.saved = 1;
	doc_init(&d, false);
	report_render(&d, &wb.items[1], &res, 3, NULL, 70);
	cr_assert(find_line(&d, "  graded at ") > 0);
	cr_assert_eq(find_line(&d, "earlier session"), -1);
	doc_free(&d);
	result_free(&res);
	workbook_free(&wb);
}

Test(report, a_grader_that_could_not_grade_says_so, .timeout = 10)
{
	struct doc d;

	load("grade-fail.json");
	res.exit_status = 3;
	free(res.stderr_text);
	res.stderr_text = xstrdup("cudalings: nvcc not found\n");
	doc_init(&d, false);
	report_render(&d, &wb.items[1], &res, 0, NULL, 70);
	cr_assert_str_eq(line_text(&d, 0), "✗ the grader could not grade col_sums (exit 3: environment error)");
	cr_assert(find_line(&d, "The grader said") > 0);
	cr_assert(find_line(&d, "nvcc not found") > 0);
	doc_free(&d);
	result_free(&res);
	workbook_free(&wb);
}

Test(report, progress_lists_stages_and_cases, .timeout = 10)
{
	struct grade_step steps[] = {
		{ .stage = "compile", .message = "compiling" },
		{ .stage = "run", .message = "" },
		{ .is_case = true, .name = "1x1", .passed = true, .index = 1, .count = 2 },
		{ .is_case = true, .name = "31x33", .passed = false, .index = 2, .count = 2 },
	};
	struct doc d;
	char *list = read_file(FIXTURE("list.json"), NULL);

	cr_assert_eq(workbook_parse(list, &wb), 0);
	doc_init(&d, false);
	report_progress(&d, &wb.items[1], "Grading", steps, 4, 70);
	cr_assert_str_eq(line_text(&d, 0), "Grading Column sums");
	cr_assert_str_eq(line_text(&d, 2), "  ✓ compile  compiling");
	cr_assert_str_eq(line_text(&d, 3), "  ▸ run");
	cr_assert_str_eq(line_text(&d, 4), "      ✓ case 1 of 2: 1x1");
	cr_assert_str_eq(line_text(&d, 5), "      ✗ case 2 of 2: 31x33");
	doc_free(&d);
	workbook_free(&wb);
	free(list);
}

Test(report, what_the_program_printed_is_shown_as_it_is, .timeout = 10)
{
	struct doc d;
	int i;

	load("grade-fail.json");
	free(res.program_output);
	res.program_output = xstrdup("x =  1\n\ty\n"
				     "a very long line that goes on and on past the edge of the screen, and on\n"
				     "    indented:a_word_too_long_to_fit_anywhere_on_a_line_of_forty\n"
				     "  table    row    with a long note that wraps under it\n");
	doc_init(&d, false);
	report_render(&d, &wb.items[1], &res, 0, NULL, 40);
	i = find_line(&d, "Your program printed");
	cr_assert(i > 0);
	cr_assert_str_eq(line_text(&d, i + 1), "  x =  1");
	cr_assert_str_eq(line_text(&d, i + 2), "          y");
	/* a long line wraps at a space, hanging under its start */
	cr_assert_str_eq(line_text(&d, i + 3), "  a very long line that goes on and on");
	cr_assert_str_eq(line_text(&d, i + 4), "    past the edge of the screen, and on");
	/* no space to wrap at: cut */
	cr_assert_str_eq(line_text(&d, i + 5), "      indented:a_word_too_long_to_fit_an");
	cr_assert_str_eq(line_text(&d, i + 6), "        ywhere_on_a_line_of_forty");
	cr_assert_str_eq(line_text(&d, i + 7), "    table    row    with a long note");
	cr_assert_str_eq(line_text(&d, i + 8), "      that wraps under it");
	doc_free(&d);
	result_free(&res);
	workbook_free(&wb);
}

Test(report, an_item_not_graded_in_this_session, .timeout = 10)
{
	struct doc d;
	char *list = read_file(FIXTURE("list.json"), NULL);

	cr_assert_eq(workbook_parse(list, &wb), 0);
	doc_init(&d, false);
	report_ungraded(&d, &wb.items[1], NULL, 1, 70);
	cr_assert_str_eq(line_text(&d, 0), "Column sums has not been graded yet.");
	/* with no failure to go by, the hints are those for writing it: correctness, then any failure */
	cr_assert(find_line(&d, "1. One thread per column.") > 0);
	cr_assert_eq(find_line(&d, "Read the first error."), -1);
	doc_free(&d);
	doc_init(&d, false);
	report_ungraded(&d, &wb.items[1], "failing", 0, 70);
	cr_assert_str_eq(line_text(&d, 0), "Column sums: failing, when last graded (before this session).");
	doc_free(&d);
	workbook_free(&wb);
	free(list);
}

Test(report, a_demo_before_and_after_its_run, .timeout = 10)
{
	struct doc d;
	char *list = read_file(FIXTURE("list.json"), NULL);

	cr_assert_eq(workbook_parse(list, &wb), 0);
	doc_init(&d, false);
	report_demo(&d, &wb.items[2], NULL, 0, 70);
	cr_assert_str_eq(line_text(&d, 0), "Coalesced add");
	cr_assert(find_line(&d, "Press c to run them.") > 0);
	doc_free(&d);
	doc_init(&d, false);
	report_demo(&d, &wb.items[2], "  variant   result\n  stride_16  correct\n", 0, 70);
	cr_assert(find_line(&d, "The run finished.") > 0);
	cr_assert(find_line(&d, "  stride_16  correct") > 0);
	doc_free(&d);
	doc_init(&d, false);
	report_demo(&d, &wb.items[2], "", -1, 70);
	cr_assert(find_line(&d, "The run was stopped.") > 0);
	doc_free(&d);
	workbook_free(&wb);
	free(list);
}

/* The column of the first glyph on line i, counting columns, not bytes. */
static int
column_of(const struct doc *d, int i, const char *glyph)
{
	const char *text = line_text(d, i), *at = strstr(text, glyph);

	return at ? utf8_width(text, (size_t)(at - text)) : -1;
}

Test(report, the_bar_from_the_reference_to_the_limit, .timeout = 10)
{
	struct doc d;
	int bar, left, right, you, gold;

	load("grade-pass-gpu.json");
	doc_init(&d, false);
	report_render(&d, &wb.items[1], &res, 0, NULL, 77);
	bar = find_line(&d, "The hardware's limit") + 1;
	cr_assert(bar > 1);
	cr_assert(!strncmp(line_text(&d, bar), "  reference ", 12));
	cr_assert(strstr(line_text(&d, bar), " limit"));
	for (int i = 0; i < d.n; i++)
		cr_assert_leq(doc_line_width(&d.lines[i]), 77, "line %d: %s", i, line_text(&d, i));
	/* slower than the reference, yours is the bar's left end; the limit its right; to scale between */
	left = column_of(&d, bar, "●");
	right = (int)strlen("  reference ") + 77 - 2 - 10 - 6 - 1;
	you = left;
	gold = column_of(&d, bar, "◆");
	cr_assert_eq(left, (int)strlen("  reference "));
	cr_assert_eq(gold, left + (int)lround((100 * 450.0 / 460.0 - 50.0) / 50.0 * (right - left)));
	cr_assert_eq(column_of(&d, bar, "┃"), left + (int)lround((100 * 450.0 / 819.4 - 50.0) / 50.0 * (right - left)));
	cr_assert_eq(S_CLASS(style_of(&d, bar, "●")), S_PASS);
	/* the figures under their marks */
	cr_assert_eq(column_of(&d, bar + 1, "50% yours"), you);
	cr_assert(strstr(line_text(&d, bar + 1), "55%") || strstr(line_text(&d, bar + 2), "55%"));
	cr_assert(find_line(&d, "98% gold") > bar);
	cr_assert(find_line(&d, "Yours is 50% of the limit here, a device-to-device copy") > bar);
	cr_assert(find_line(&d, "pass. The next: within 1.1× of gold, 506.0 µs.") > bar);
	doc_free(&d);
	result_free(&res);
	workbook_free(&wb);
}

Test(report, the_bar_in_ascii_and_at_forty_columns, .timeout = 10)
{
	struct doc d;
	int bar;

	load("grade-pass-gpu.json");
	free(res.tier);
	res.tier = xstrdup("gold");
	doc_init(&d, true);
	report_render(&d, &wb.items[1], &res, 0, NULL, 40);
	bar = find_line(&d, "The hardware's limit") + 1;
	cr_assert(bar > 1);
	for (int i = 0; i < d.n; i++) {
		cr_assert_leq(doc_line_width(&d.lines[i]), 40, "line %d: %s", i, line_text(&d, i));
		for (const char *p = line_text(&d, i); *p; p++)
			cr_assert((unsigned char)*p < 0x80, "not ASCII: %s", line_text(&d, i));
	}
	cr_assert(strchr(line_text(&d, bar), '*'));
	cr_assert(strchr(line_text(&d, bar), 'G'));
	cr_assert(find_line(&d, "Tier: as fast as gold, the top tier.") > bar);
	doc_free(&d);
	result_free(&res);
	workbook_free(&wb);
}

Test(report, no_bar_without_the_limit, .timeout = 10)
{
	struct doc d;

	/* an older grader, or the simulator: no physical reference measured */
	load("grade-slow-gpu.json");
	doc_init(&d, false);
	report_render(&d, &wb.items[1], &res, 0, NULL, 77);
	cr_assert_eq(find_line(&d, "The hardware's limit"), -1);
	doc_free(&d);
	result_free(&res);
	workbook_free(&wb);
}

Test(report, a_formula_in_a_hint_is_code_on_one_line, .timeout = 10)
{
	struct hint h[] = { { "correctness", "On the way out, thread (tx, ty) writes "
			      "out[(bx*32 + ty) * rows + by*32 + tx] and takes tile[tx][ty]." } };
	struct item it = { .name = "tile", .kind = "exercise", .title = "Tile", .hints = h, .nhints = 1 };
	struct doc d;
	int i;

	load("grade-fail.json");
	doc_init(&d, false);
	report_render(&d, &it, &res, 1, NULL, 60);
	i = find_line(&d, "out[(bx*32 + ty) * rows + by*32 + tx]");
	cr_assert(i > 0, "the formula is broken across lines");
	cr_assert_eq(S_CLASS(style_of(&d, i, "out[(bx*32")), S_CODE);
	cr_assert_eq(style_of(&d, i, "out[(bx*32") & F_KEEP, 0);
	/* spaces are spaces: what is copied from the screen compiles */
	for (int k = 0; k < d.n; k++)
		cr_assert_null(strstr(line_text(&d, k), "\xc2\xa0"), "%s", line_text(&d, k));
	cr_assert_eq(S_CLASS(style_of(&d, find_line(&d, "1. On the way out"), "On the way")), S_PLAIN);
	doc_free(&d);
	result_free(&res);
	workbook_free(&wb);
}
