#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/tui/unit/helpers.h"
#include "common/state.h"
#include "lib/util.h"

Test(state, a_missing_file_is_a_fresh_start, .timeout = 10)
{
	char *root = temp_dir();
	struct state st;

	state_load(&st, root);
	cr_assert_null(st.note);
	cr_assert_eq(state_status(&st, "col_sums"), STATUS_NOT_STARTED);
	cr_assert_eq(state_hints(&st, "col_sums", "any"), 0);
	state_free(&st);
	free(root);
}

Test(state, progress_survives_a_reopen, .timeout = 10)
{
	char *root = temp_dir(), *tmp;
	struct state st;

	state_load(&st, root);
	state_set_status(&st, "col_sums", STATUS_SIM);
	state_set_status(&st, "intro", STATUS_READ);
	state_set_hints(&st, "col_sums", "correctness", 2);
	state_set_hints(&st, "col_sums", "compile", 1);
	state_set_status(&st, "col_sums", STATUS_GPU);
	cr_assert_eq(state_save(&st), 0, "%s", last_error());
	state_free(&st);

	state_load(&st, root);
	cr_assert_null(st.note);
	cr_assert_eq(state_status(&st, "col_sums"), STATUS_GPU);
	cr_assert_eq(state_status(&st, "intro"), STATUS_READ);
	cr_assert_eq(state_hints(&st, "col_sums", "correctness"), 2);
	/* a hint for one stage is not spent on another */
	cr_assert_eq(state_hints(&st, "col_sums", "compile"), 1);
	cr_assert_eq(state_hints(&st, "col_sums", "performance"), 0);
	cr_assert_eq(state_status(&st, "other"), STATUS_NOT_STARTED);
	/* no temp file is left behind */
	tmp = xasprintf("%s.tmp.%ld", st.path, (long)getpid());
	cr_assert_neq(access(tmp, F_OK), 0);
	free(tmp);
	state_free(&st);
	free(root);
}

Test(state, a_corrupt_file_is_set_aside_not_fatal, .timeout = 10)
{
	char *root = temp_dir(), *aside, *aside1;
	struct state st;

	make_dir(root, ".cudalings");
	write_text(root, ".cudalings/state.json", "{\"items\": {\"col_sums\": ");
	state_load(&st, root);
	cr_assert_not_null(st.note);
	cr_assert(strstr(st.note, "not valid JSON"), "%s", st.note);
	cr_assert(strstr(st.note, "state.json.corrupt"), "%s", st.note);
	aside = xasprintf("%s.corrupt", st.path);
	cr_assert_eq(access(aside, F_OK), 0);
	/* and it works afresh */
	state_set_status(&st, "col_sums", STATUS_FAILING);
	cr_assert_eq(state_save(&st), 0);
	state_free(&st);

	/* a second bad file does not overwrite the first one set aside */
	write_text(root, ".cudalings/state.json", "[1, 2]");
	state_load(&st, root);
	cr_assert(strstr(st.note, "not a JSON object"), "%s", st.note);
	aside1 = xasprintf("%s.corrupt-1", st.path);
	cr_assert_eq(access(aside1, F_OK), 0);
	cr_assert_eq(state_status(&st, "col_sums"), STATUS_NOT_STARTED);
	state_free(&st);
	free(aside);
	free(aside1);
	free(root);
}

Test(state, damaged_entries_read_as_not_started, .timeout = 10)
{
	char *root = temp_dir();
	struct state st;

	make_dir(root, ".cudalings");
	write_text(root, ".cudalings/state.json",
		   "{\"items\": {\"a\": 3, \"b\": {\"status\": \"bogus\", \"hints\": -2}}, \"mine\": [1]}");
	state_load(&st, root);
	cr_assert_null(st.note);
	cr_assert_eq(state_status(&st, "a"), STATUS_NOT_STARTED);
	cr_assert_eq(state_status(&st, "b"), STATUS_NOT_STARTED);
	cr_assert_eq(state_hints(&st, "b", "correctness"), 0);
	state_set_hints(&st, "b", "correctness", 1);
	cr_assert_eq(state_hints(&st, "b", "correctness"), 1);
	state_set_status(&st, "a", STATUS_FAILING);
	cr_assert_eq(state_status(&st, "a"), STATUS_FAILING);
	cr_assert_eq(state_save(&st), 0);
	state_free(&st);
	free(root);
}

Test(state, keys_it_does_not_know_are_kept, .timeout = 10)
{
	char *root = temp_dir(), *text;
	struct state st;

	make_dir(root, ".cudalings");
	write_text(root, ".cudalings/state.json", "{\"version\": 1, \"items\": {}, \"instructor\": \"kept\"}");
	state_load(&st, root);
	state_set_status(&st, "x", STATUS_SIM);
	cr_assert_eq(state_save(&st), 0);
	text = read_file(st.path, NULL);
	cr_assert(strstr(text, "\"instructor\":\t\"kept\""), "%s", text);
	cr_assert(strstr(text, "correct_on_sim"), "%s", text);
	free(text);
	state_free(&st);
	free(root);
}

Test(state, a_write_that_fails_says_why, .timeout = 10)
{
	char *root = temp_dir();
	struct state st;

	/* .cudalings is a file: the directory cannot be made */
	write_text(root, ".cudalings", "in the way");
	state_load(&st, root);
	state_set_status(&st, "x", STATUS_SIM);
	cr_assert_eq(state_save(&st), -1);
	cr_assert(strstr(last_error(), ".cudalings"), "%s", last_error());
	state_free(&st);
	free(root);
}

Test(state, labels, .timeout = 10)
{
	cr_assert_str_eq(status_label(STATUS_GPU), "passed on the GPU");
	cr_assert_str_eq(status_label(STATUS_SIM), "correct on the simulator");
	cr_assert(status_done(STATUS_SIM) && status_done(STATUS_READ));
	cr_assert(!status_done(STATUS_FAILING) && !status_done(STATUS_NOT_STARTED));
}

Test(state, reports_are_kept_beside_the_state, .timeout = 10)
{
	char *root = temp_dir(), *json;
	struct state st;

	state_load(&st, root);
	cr_assert_null(state_load_report(&st, "col_sums"));
	/* .cudalings/ and reports/ are made as needed */
	cr_assert_eq(state_save_report(&st, "col_sums", "{\"verdict\":\"fail\"}"), 0, "%s", last_error());
	json = state_load_report(&st, "col_sums");
	cr_assert_str_eq(json, "{\"verdict\":\"fail\"}");
	free(json);
	/* a name is never a path */
	cr_assert_eq(state_save_report(&st, "../evil", "{}"), -1);
	cr_assert_null(state_load_report(&st, "../evil"));
	state_forget_report(&st, "col_sums");
	cr_assert_null(state_load_report(&st, "col_sums"));
	state_free(&st);
	free(root);
}

Test(state, two_writers_keep_each_others_items, .timeout = 10)
{
	char *root = temp_dir();
	struct state workbook, grader;

	/* the workbook is open; a make grade records a grading meanwhile */
	state_load(&workbook, root);
	state_set_status(&workbook, "intro", STATUS_READ);
	cr_assert_eq(state_save(&workbook), 0, "%s", last_error());
	state_load(&grader, root);
	state_set_status(&grader, "col_sums", STATUS_SIM);
	cr_assert_eq(state_save(&grader), 0, "%s", last_error());
	/* the workbook saves a hint seen, from its old copy: the grading is not lost */
	state_set_hints(&workbook, "transpose", "correctness", 1);
	cr_assert_eq(state_save(&workbook), 0, "%s", last_error());
	cr_assert_eq(state_status(&workbook, "col_sums"), STATUS_SIM, "a save brings in the others' items");
	state_free(&grader);
	state_load(&grader, root);
	cr_assert_eq(state_status(&grader, "col_sums"), STATUS_SIM);
	cr_assert_eq(state_status(&grader, "intro"), STATUS_READ);
	cr_assert_eq(state_hints(&grader, "transpose", "correctness"), 1);
	state_free(&grader);
	state_free(&workbook);
	free(root);
}

Test(state, reload_sees_another_process_save, .timeout = 10)
{
	char *root = temp_dir();
	struct state workbook, grader;

	state_load(&workbook, root);
	cr_assert_not(state_reload(&workbook), "nothing new yet");
	state_load(&grader, root);
	state_set_status(&grader, "matmul", STATUS_FAILING);
	cr_assert_eq(state_save(&grader), 0, "%s", last_error());
	state_set_hints(&workbook, "matmul", "any", 3);	/* not saved yet: kept through the reload */
	cr_assert(state_reload(&workbook));
	cr_assert_eq(state_status(&workbook, "matmul"), STATUS_NOT_STARTED,
		     "the unsaved item is the workbook's own until it saves");
	cr_assert_eq(state_hints(&workbook, "matmul", "any"), 3);
	cr_assert_not(state_reload(&workbook), "read once");
	state_free(&grader);
	state_free(&workbook);
	free(root);
}

Test(state, an_edit_after_grading_is_noticed, .timeout = 10)
{
	char *root = temp_dir(), *file;
	struct state st;
	static const char graded[] = "__global__ void k() {}\n";

	write_text(root, "col_sums.cu", graded);
	file = xasprintf("%s/col_sums.cu", root);
	state_load(&st, root);
	cr_assert_not(state_changed_since_graded(&st, "col_sums", file), "never graded: nothing to compare");
	state_set_status(&st, "col_sums", state_status_of(true, "sim"));
	state_set_graded(&st, "col_sums", graded, strlen(graded));
	cr_assert_eq(state_status(&st, "col_sums"), STATUS_SIM);
	cr_assert_not(state_changed_since_graded(&st, "col_sums", file));
	write_text(root, "col_sums.cu", "__global__ void k() { }\n");
	cr_assert(state_changed_since_graded(&st, "col_sums", file));
	cr_assert_eq(state_status_of(true, "gpu"), STATUS_GPU);
	cr_assert_eq(state_status_of(false, "gpu"), STATUS_FAILING);
	state_free(&st);
	free(file);
	free(root);
}

/* The workbook tells an earlier session's grading from its own by this time: whole seconds took a
   session reopened within the second of the last grading for the same session. */
Test(state, a_report_is_dated_to_the_millisecond, .timeout = 10)
{
	char *root = temp_dir(), *path;
	struct state st;

	state_load(&st, root);
	cr_assert_eq(state_save_report(&st, "col_sums", "{}"), 0, "%s", last_error());
	path = xasprintf("%s/.cudalings/reports/col_sums.json", root);
	const struct timespec when[2] = { { 1700000000, 250000000 }, { 1700000000, 750000000 } };
	cr_assert_eq(utimensat(AT_FDCWD, path, when, 0), 0, "%s", path);
	cr_assert_eq(state_report_saved(&st, "col_sums"), 1700000000750LL);
	cr_assert_eq(state_report_saved(&st, "other"), 0);
	free(path);
	state_free(&st);
	free(root);
}
