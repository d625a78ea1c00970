/* The grading session's protocol, fed bytes: whole, torn, forged. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "grader/engine/capture.h"
#include "lib/file.h"
#include "harness/plan.h"
#include "harness/sandbox.h"
#include "grader/engine/session.h"
#include "grader/exercise/manifest.h"

static struct exercise exercise = { .name = "col_sums", .ncases = 24, .threshold_ratio = 1.25 };

struct fixture {
	struct grade_result r;
	struct session s;
	struct buf judge, runner;
};

/* A grading of `ncases` cases of one output of `n` elements of `dtype`, `timed` its timed case or -1. */
static void
setup_typed(struct fixture *f, const struct exercise *e, int ncases, int timed, size_t n, uint32_t dtype)
{
	memset(f, 0, sizeof(*f));
	buf_init(&f->judge);
	buf_init(&f->runner);
	f->r.ncases = ncases;
	f->r.cases = calloc((size_t)ncases, sizeof(*f->r.cases));
	for (int i = 0; i < ncases; i++)
		snprintf(f->r.cases[i].name, sizeof(f->r.cases[i].name), "case%d", i);
	session_init(&f->s, e, BACKEND_SIM, &f->r, timed);
	/* what the judge says: each case's one output, every element 1.0 exactly */
	for (int i = 0; i < ncases; i++) {
		struct proto_case_info info = { .bytes = 8.0 * n, .nbuffers = 1 };
		strcpy(info.buffers[0].name, "sums");
		info.buffers[0].is_output = 1;
		info.buffers[0].dtype = dtype;
		info.buffers[0].rows = 1;
		info.buffers[0].cols = n;
		struct proto_header h = { PROTO_MAGIC, MSG_CASE_INFO, (uint32_t)i, 0, sizeof(info) };
		buf_add(&f->judge, &h, sizeof(h));
		buf_add(&f->judge, &info, sizeof(info));
		struct proto_expect *e = calloc(n, sizeof(*e));
		for (size_t k = 0; k < n; k++)
			e[k].value = 1.0;
		h = (struct proto_header){ PROTO_MAGIC, MSG_EXPECTED, (uint32_t)i, 0, n * sizeof(*e) };
		buf_add(&f->judge, &h, sizeof(h));
		buf_add(&f->judge, e, n * sizeof(*e));
		free(e);
	}
	session_feed(&f->s, FROM_JUDGE, f->judge.data, f->judge.len);
}

/* The same, of floats. */
static void
setup(struct fixture *f, int ncases, int timed, size_t n)
{
	setup_typed(f, &exercise, ncases, timed, n, DTYPE_FLOAT32);
}

static void
teardown(struct fixture *f)
{
	session_release(&f->s);
	for (int i = 0; i < f->r.ncases; i++)
		free(f->r.cases[i].message);
	free(f->r.cases);
	free(f->r.message);
	for (int i = 0; i < f->r.ndiagnostics; i++) {
		free(f->r.diagnostics[i].kind);
		free(f->r.diagnostics[i].message);
	}
	buf_free(&f->judge);
	buf_free(&f->runner);
}

static void
say(struct buf *b, uint32_t type, uint32_t index, uint32_t aux, const void *payload, uint64_t length)
{
	struct proto_header h = { PROTO_MAGIC, type, index, aux, length };
	buf_add(b, &h, sizeof(h));
	if (length)
		buf_add(b, payload, length);
}

/* A runner that runs every case and sends `value` for each element. */
static void
honest_runner(struct buf *b, int ncases, size_t n, float value)
{
	struct proto_device d = { .name = "test GPU" };
	say(b, MSG_HELLO, 0, 0, &d, sizeof(d));
	float *out = malloc(n * sizeof(float));
	for (size_t k = 0; k < n; k++)
		out[k] = value;
	for (int i = 0; i < ncases; i++) {
		say(b, MSG_CASE_BEGIN, (uint32_t)i, 0, NULL, 0);
		say(b, MSG_OUTPUT, (uint32_t)i, 0, out, n * sizeof(float));
	}
	say(b, MSG_DONE, 0, 0, NULL, 0);
	free(out);
}

static int
passed(const struct fixture *f)
{
	int n = 0;
	for (int i = 0; i < f->r.ncases; i++)
		n += f->r.cases[i].ran && f->r.cases[i].passed;
	return n;
}

Test(session, every_one_of_24_cases_is_judged, .timeout = 5)
{
	struct fixture f;
	setup(&f, 24, -1, 16);
	honest_runner(&f.runner, 24, 16, 1.0f);
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert(f.s.done);
	cr_assert_eq(passed(&f), 24);
	cr_assert_not(f.s.stop_runner);
	teardown(&f);
}

Test(session, a_message_torn_at_every_byte_reads_the_same, .timeout = 5)
{
	struct fixture f;
	setup(&f, 3, -1, 5);
	honest_runner(&f.runner, 3, 5, 1.0f);
	for (size_t i = 0; i < f.runner.len; i++)
		session_feed(&f.s, FROM_RUNNER, f.runner.data + i, 1);
	cr_assert(f.s.done);
	cr_assert_eq(passed(&f), 3);
	teardown(&f);
}

Test(session, a_wrong_output_fails_its_case_and_no_other, .timeout = 5)
{
	struct fixture f;
	setup(&f, 2, -1, 4);
	struct proto_device d = { .name = "test GPU" };
	say(&f.runner, MSG_HELLO, 0, 0, &d, sizeof(d));
	float good[4] = { 1, 1, 1, 1 }, bad[4] = { 1, 2, 1, 1 };
	say(&f.runner, MSG_CASE_BEGIN, 0, 0, NULL, 0);
	say(&f.runner, MSG_OUTPUT, 0, 0, bad, sizeof(bad));
	say(&f.runner, MSG_CASE_BEGIN, 1, 0, NULL, 0);
	say(&f.runner, MSG_OUTPUT, 1, 0, good, sizeof(good));
	say(&f.runner, MSG_DONE, 0, 0, NULL, 0);
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert_not(f.r.cases[0].passed);
	cr_assert_eq(f.r.cases[0].mismatches, 1);
	cr_assert_not_null(strstr(f.r.cases[0].message, "sums[1]"));
	cr_assert(f.r.cases[1].passed);
	teardown(&f);
}

Test(session, garbage_breaks_the_stream_and_stops_the_runner, .timeout = 5)
{
	struct fixture f;
	setup(&f, 2, -1, 4);
	say(&f.runner, MSG_CASE_BEGIN, 0, 0, NULL, 0);
	buf_addstr(&f.runner, "{\"verdict\": \"pass\"} and some more bytes to fill a header");
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert(f.s.stop_runner);
	cr_assert_not(f.r.cases[0].passed);
	cr_assert_not_null(strstr(f.r.cases[0].message, "not a message of the harness"));
	/* nothing after the break is read */
	float good[4] = { 1, 1, 1, 1 };
	buf_reset(&f.runner);
	say(&f.runner, MSG_OUTPUT, 0, 0, good, sizeof(good));
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert_not(f.r.cases[0].passed);
	teardown(&f);
}

Test(session, a_header_that_lies_about_its_length_is_forged, .timeout = 5)
{
	struct fixture f;
	setup(&f, 1, -1, 4);
	struct proto_header h = { PROTO_MAGIC, MSG_OUTPUT, 0, 0, (uint64_t)1 << 40 };
	say(&f.runner, MSG_CASE_BEGIN, 0, 0, NULL, 0);
	buf_add(&f.runner, &h, sizeof(h));
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert(f.s.stop_runner);
	cr_assert_not(f.r.cases[0].passed);
	teardown(&f);
}

Test(session, a_timing_report_outside_the_timed_case_is_forged, .timeout = 5)
{
	struct fixture f;
	setup(&f, 4, 2, 4); /* cases 0, 1; the timed case 2 and its judged round 3 */
	struct proto_timing t = { .student_us = 1, .reference_us = 100, .ratio = 0.01 };
	say(&f.runner, MSG_CASE_BEGIN, 0, 0, NULL, 0);
	say(&f.runner, MSG_TIMING, 2, 0, &t, sizeof(t));
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert_not(f.s.have_timing);
	cr_assert_not(f.r.cases[2].passed);
	cr_assert_not_null(strstr(f.r.cases[2].message, "forged"));
	teardown(&f);
}

Test(session, a_second_timing_report_is_forged, .timeout = 5)
{
	struct fixture f;
	setup(&f, 4, 2, 4);
	struct proto_timing t = { .student_us = 100, .reference_us = 100, .ratio = 1 };
	say(&f.runner, MSG_CASE_BEGIN, 2, 0, NULL, 0);
	say(&f.runner, MSG_TIMING, 2, 0, &t, sizeof(t));
	say(&f.runner, MSG_TIMING, 2, 0, &t, sizeof(t));
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert(f.s.have_timing);
	cr_assert(f.r.cases[2].wrong);
	teardown(&f);
}

Test(session, a_timed_round_unlike_the_reference_fails_as_wrong, .timeout = 5)
{
	struct fixture f;
	setup(&f, 4, 2, 4);
	struct proto_round_differs d = { .round = 6, .buffer = 0, .first = 3, .count = 4, .student = 2, .reference = 1 };
	say(&f.runner, MSG_CASE_BEGIN, 2, 0, NULL, 0);
	say(&f.runner, MSG_ROUND_DIFFERS, 2, 0, &d, sizeof(d));
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert(f.r.cases[3].wrong);
	cr_assert_not_null(strstr(f.r.cases[3].message, "timed round 7"));
	cr_assert_not_null(strstr(f.r.cases[3].message, "sums[3]"));
	teardown(&f);
}

Test(session, the_judged_round_arrives_while_in_the_timed_case, .timeout = 5)
{
	struct fixture f;
	setup(&f, 4, 2, 4);
	float bad[4] = { 0, 0, 0, 0 };
	say(&f.runner, MSG_CASE_BEGIN, 2, 0, NULL, 0);
	say(&f.runner, MSG_OUTPUT, 3, 0, bad, sizeof(bad));
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert(f.r.cases[3].ran);
	cr_assert_not(f.r.cases[3].passed);
	teardown(&f);
}

Test(session, a_refusal_is_kept_with_when_it_happened, .timeout = 5)
{
	struct fixture f;
	setup(&f, 1, -1, 4);
	const char *why = "the program made the system call 'execve': a submission may not run programs";
	say(&f.runner, MSG_REFUSED, 0, SANDBOX_RUN, why, strlen(why));
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert_str_eq(f.s.refused, why);
	cr_assert_eq(f.s.refused_when, SANDBOX_RUN);
	/* the runner's end then says nothing more: the refusal is the verdict */
	session_runner_ended(&f.s, false, 10, "exited with status 1");
	cr_assert_null(f.r.cases[0].message);
	teardown(&f);
}

Test(session, a_runner_stuck_while_loading_says_so, .timeout = 5)
{
	struct fixture f;
	setup(&f, 1, -1, 4);
	struct proto_device d = { .name = "test GPU" };
	say(&f.runner, MSG_HELLO, 0, 0, &d, sizeof(d));
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	session_runner_ended(&f.s, true, 5, "ran past its time limit and was stopped");
	cr_assert_not_null(strstr(f.r.cases[0].message, "did not reach its first case within 5 s"));
	teardown(&f);
}

/* The "Measure it" demo's ways of timing: kept once, in the timed case, for a demo that asks for them. */
Test(session, the_ways_of_timing_are_kept_only_where_and_when_asked, .timeout = 5)
{
	struct proto_way ways[2] = { { .kind = WAY_RIGHT, .samples = 51, .us = 8.5 },
				     { .kind = WAY_LAUNCH_ONLY, .samples = 51, .us = 2.5 } };
	struct fixture f;
	/* an exercise that does not ask: ignored */
	setup(&f, 4, 2, 4);
	say(&f.runner, MSG_CASE_BEGIN, 2, 0, NULL, 0);
	say(&f.runner, MSG_WAYS, 2, 0, ways, sizeof(ways));
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert_eq(f.r.nways, 0);
	teardown(&f);

	struct exercise demo = exercise;
	demo.timing_ways = true;
	setup(&f, 4, 2, 4);
	f.s.e = &demo;
	/* before the timed case: ignored; in it: kept; a second report: ignored */
	struct proto_way other = { .kind = WAY_WARM_CACHE, .samples = 51, .us = 5 };
	say(&f.runner, MSG_WAYS, 2, 0, &other, sizeof(other));
	say(&f.runner, MSG_CASE_BEGIN, 2, 0, NULL, 0);
	say(&f.runner, MSG_WAYS, 2, 0, ways, sizeof(ways));
	say(&f.runner, MSG_WAYS, 2, 0, &other, sizeof(other));
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert_eq(f.r.nways, 2);
	cr_assert_eq(f.r.ways[1].kind, WAY_LAUNCH_ONLY);
	cr_assert_float_eq(f.r.ways[0].us, 8.5, 1e-9);
	teardown(&f);

	/* a kind the grader does not know: none kept */
	setup(&f, 4, 2, 4);
	f.s.e = &demo;
	struct proto_way unknown = { .kind = WAY_KINDS, .us = 1 };
	say(&f.runner, MSG_CASE_BEGIN, 2, 0, NULL, 0);
	say(&f.runner, MSG_WAYS, 2, 0, &unknown, sizeof(unknown));
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert_eq(f.r.nways, 0);
	teardown(&f);
}

/* ------------------------------------------------------------ outputs of other types */

Test(session, a_uint8_output_is_read_as_bytes_and_compared_exactly, .timeout = 5)
{
	struct fixture f;
	setup_typed(&f, &exercise, 2, -1, 6, DTYPE_UINT8);
	struct proto_device d = { .name = "test GPU" };
	say(&f.runner, MSG_HELLO, 0, 0, &d, sizeof(d));
	uint8_t right[6] = { 1, 1, 1, 1, 1, 1 }, wrong[6] = { 1, 1, 1, 2, 1, 1 };
	say(&f.runner, MSG_CASE_BEGIN, 0, 0, NULL, 0);
	say(&f.runner, MSG_OUTPUT, 0, 0, right, sizeof(right));
	say(&f.runner, MSG_CASE_BEGIN, 1, 0, NULL, 0);
	say(&f.runner, MSG_OUTPUT, 1, 0, wrong, sizeof(wrong));
	say(&f.runner, MSG_DONE, 0, 0, NULL, 0);
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert(f.s.done);
	cr_assert(f.r.cases[0].passed);
	cr_assert_not(f.r.cases[1].passed);
	cr_assert_not_null(strstr(f.r.cases[1].message, "sums[3] is 2, expected 1"), "%s", f.r.cases[1].message);
	teardown(&f);
}

Test(session, an_output_sized_as_floats_where_the_check_says_uint8_is_refused, .timeout = 5)
{
	struct fixture f;
	setup_typed(&f, &exercise, 1, -1, 6, DTYPE_UINT8);
	float out[6] = { 1, 1, 1, 1, 1, 1 };
	say(&f.runner, MSG_CASE_BEGIN, 0, 0, NULL, 0);
	say(&f.runner, MSG_OUTPUT, 0, 0, out, sizeof(out));
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert(f.s.stop_runner);
	cr_assert_not(f.r.cases[0].passed);
	teardown(&f);
}

Test(session, a_check_whose_types_disagree_with_the_launcher_is_named, .timeout = 5)
{
	struct exercise typed = { .name = "histogram", .ncases = 24, .threshold_ratio = 1.25, .nparams = 1,
				  .launcher = "void histogram_launch(unsigned int *sums)" };
	typed.params[0] = (struct buffer_param){ "unsigned int *sums", DTYPE_UINT32, false };
	struct fixture f;
	setup_typed(&f, &typed, 1, -1, 4, DTYPE_UINT8);
	cr_assert_not_null(f.s.check_error);
	cr_assert_not_null(strstr(f.s.check_error, "declares buffer 1 'sums' as uint8, but the launcher's parameter "
						   "'unsigned int *sums' is uint32"), "%s", f.s.check_error);
	cr_assert(f.s.in[FROM_JUDGE].broken);
	teardown(&f);
	typed.params[0].dtype = DTYPE_UINT8;
	setup_typed(&f, &typed, 1, -1, 4, DTYPE_UINT8);
	cr_assert_null(f.s.check_error);
	teardown(&f);
}

Test(session, a_judge_naming_a_type_that_does_not_exist_is_broken, .timeout = 5)
{
	struct fixture f;
	setup_typed(&f, &exercise, 1, -1, 4, DTYPE_COUNT + 3);
	cr_assert(f.s.in[FROM_JUDGE].broken);
	cr_assert_eq(f.s.cases[0].count[0], 0, "nothing of a buffer of no known type is compared");
	teardown(&f);
}

/* ------------------------------------------------------------ the capture process (GPU) */

Test(session, a_timing_report_from_the_capture_process_is_forged, .timeout = 5)
{
	struct fixture f;
	setup(&f, 3, 1, 4);
	struct proto_timing t = { .student_us = 700, .reference_us = 700, .ratio = 1.0, .rounds = 20, .measurements = 1 };
	say(&f.runner, MSG_CASE_BEGIN, 0, 0, NULL, 0);
	say(&f.runner, MSG_PLAN, 0, 0, NULL, 0);
	say(&f.runner, MSG_CASE_BEGIN, 1, 0, NULL, 0);
	say(&f.runner, MSG_TIMING, 1, 0, &t, sizeof(t));
	say(&f.runner, MSG_DONE, 0, 0, NULL, 0);
	session_feed(&f.s, FROM_CAPTURE, f.runner.data, f.runner.len);
	cr_assert_not(f.s.have_timing);
	cr_assert_not(f.s.capture_done, "nothing after the forgery is read");
	cr_assert(f.s.in[FROM_CAPTURE].broken);
	cr_assert_not(f.r.cases[1].passed);
	cr_assert_not_null(strstr(f.r.cases[1].message, "only the grader's measuring process reports"));
	teardown(&f);
}

Test(session, an_output_from_the_capture_process_is_forged, .timeout = 5)
{
	struct fixture f;
	setup(&f, 1, -1, 4);
	float good[4] = { 1, 1, 1, 1 };
	say(&f.runner, MSG_CASE_BEGIN, 0, 0, NULL, 0);
	say(&f.runner, MSG_OUTPUT, 0, 0, good, sizeof(good));
	session_feed(&f.s, FROM_CAPTURE, f.runner.data, f.runner.len);
	cr_assert(f.s.in[FROM_CAPTURE].broken);
	cr_assert_not(f.r.cases[0].passed);
	teardown(&f);
}

/* A launch of `name` on one block of 32 threads, its one argument a pointer to `to`. */
static void
plan_launch(struct buf *plan, const char *name, struct plan_ref to)
{
	struct plan_launch l = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .nparams = 1, .nrelocs = 1, .args_bytes = 8 };
	snprintf(l.name, sizeof(l.name), "%s", name);
	struct plan_param p = { 0, 8 };
	struct plan_reloc r = { .at = 0, .to = to };
	uint64_t arg = 0;
	struct plan_record h = { PLAN_LAUNCH, sizeof(l) + sizeof(p) + sizeof(r) + sizeof(arg) };
	buf_add(plan, &h, sizeof(h));
	buf_add(plan, &l, sizeof(l));
	buf_add(plan, &p, sizeof(p));
	buf_add(plan, &r, sizeof(r));
	buf_add(plan, &arg, sizeof(arg));
}

Test(session, the_capture_plans_are_checked_and_written_in_case_order, .timeout = 5)
{
	struct fixture f;
	setup(&f, 2, -1, 4);
	struct buf plan = BUF_INIT;
	plan_launch(&plan, "_Z6kernelPf", (struct plan_ref){ PLAN_CASE_BUFFER, 0, 16 });
	say(&f.runner, MSG_PLAN, 0, 0, plan.data, plan.len);
	say(&f.runner, MSG_PLAN, 1, 0, plan.data, plan.len);
	say(&f.runner, MSG_DONE, 0, 0, NULL, 0);
	session_feed(&f.s, FROM_CAPTURE, f.runner.data, f.runner.len);
	cr_assert(f.s.capture_done);
	char path[] = "/tmp/cudalings-plans-XXXXXX";
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_eq(capture_write_plans(&f.s, path), 0);
	size_t n = 0;
	char *text = read_file(path, &n);
	cr_assert_eq(n, 2 * (sizeof(struct plan_file_entry) + plan.len));
	struct plan_file_entry h;
	memcpy(&h, text + sizeof(h) + plan.len, sizeof(h));
	cr_assert_eq(h.case_index, 1);
	free(text);
	unlink(path);
	buf_free(&plan);
	teardown(&f);
}

Test(session, a_plan_reaching_past_the_case_arrays_is_refused_by_name, .timeout = 5)
{
	struct fixture f;
	setup(&f, 1, -1, 4);
	struct buf plan = BUF_INIT;
	/* the output has 4 floats: 16 bytes, and an address past them is no array's */
	plan_launch(&plan, "_Z6kernelPf", (struct plan_ref){ PLAN_CASE_BUFFER, 0, 17 });
	say(&f.runner, MSG_PLAN, 0, 0, plan.data, plan.len);
	say(&f.runner, MSG_DONE, 0, 0, NULL, 0);
	session_feed(&f.s, FROM_CAPTURE, f.runner.data, f.runner.len);
	cr_assert_eq(capture_write_plans(&f.s, "/nonexistent/plans"), -1);
	cr_assert_not_null(f.s.refused);
	cr_assert_not_null(strstr(f.s.refused, "_Z6kernelPf"), "%s", f.s.refused);
	cr_assert_not_null(strstr(f.s.refused, "neither the case's arrays"), "%s", f.s.refused);
	buf_free(&plan);
	teardown(&f);
}

/* The simulator's runner reports a case's figures once, while in it: the launcher, run in that process,
   could write more to its channel (tests/adversarial/forges_simulator_figures_on_its_channel.cu). */
Test(session, a_second_report_of_a_cases_figures_is_forged, .timeout = 5)
{
	struct fixture f;
	setup(&f, 2, -1, 4);
	struct proto_device d = { .name = "cudalings CPU simulator", .is_simulator = 1 };
	struct proto_counts n;
	memset(&n, 0, sizeof(n));
	n.shared_requests = n.shared_wavefronts = n.shared_ideal = 1;
	float good[4] = { 1, 1, 1, 1 };
	say(&f.runner, MSG_HELLO, 0, 0, &d, sizeof(d));
	say(&f.runner, MSG_CASE_BEGIN, 0, 0, NULL, 0);
	say(&f.runner, MSG_COUNTS, 0, 0, &n, sizeof(n));
	say(&f.runner, MSG_OUTPUT, 0, 0, good, sizeof(good));
	say(&f.runner, MSG_CASE_BEGIN, 1, 0, NULL, 0);
	say(&f.runner, MSG_COUNTS, 1, 0, &n, sizeof(n));
	say(&f.runner, MSG_COUNTS, 1, 0, &n, sizeof(n));
	say(&f.runner, MSG_OUTPUT, 1, 0, good, sizeof(good));
	say(&f.runner, MSG_DONE, 0, 0, NULL, 0);
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert(f.r.cases[0].passed, "one report, in its case: %s", f.r.cases[0].message);
	cr_assert_not(f.r.cases[1].passed);
	cr_assert_not_null(strstr(f.r.cases[1].message, "forged"));
	teardown(&f);
}

Test(session, figures_for_a_case_not_running_are_forged, .timeout = 5)
{
	struct fixture f;
	setup(&f, 2, -1, 4);
	struct proto_counts n;
	memset(&n, 0, sizeof(n));
	say(&f.runner, MSG_CASE_BEGIN, 0, 0, NULL, 0);
	say(&f.runner, MSG_COUNTS, 1, 0, &n, sizeof(n));
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert_not(f.r.cases[1].passed);
	cr_assert_not_null(strstr(f.r.cases[1].message, "forged"));
	teardown(&f);
}

/* A machine's error comes before the submission's code runs: before the simulator's HELLO, and on a GPU
   before the first case; after that it is the submission's, which would turn its fail into an error. */
Test(session, a_device_error_before_the_simulators_hello_is_the_machines, .timeout = 5)
{
	struct fixture f;
	setup(&f, 1, -1, 4);
	say(&f.runner, MSG_ERROR, 0, PROTO_STAGE_DEVICE, "the filter", 10);
	say(&f.runner, MSG_DONE, 0, 0, NULL, 0);
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert_not_null(f.s.device_error);
	teardown(&f);
}

Test(session, a_device_error_after_the_simulators_hello_is_forged, .timeout = 5)
{
	struct fixture f;
	setup(&f, 1, -1, 4);
	struct proto_device d = { .name = "cudalings CPU simulator", .is_simulator = 1 };
	say(&f.runner, MSG_HELLO, 0, 0, &d, sizeof(d));
	say(&f.runner, MSG_ERROR, 0, PROTO_STAGE_DEVICE, "no GPU", 6);
	say(&f.runner, MSG_DONE, 0, 0, NULL, 0);
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert_null(f.s.device_error);
	cr_assert_not(f.r.cases[0].passed);
	cr_assert_not_null(strstr(f.r.cases[0].message, "forged"));
	teardown(&f);
}

Test(session, a_device_error_once_a_case_began_is_forged, .timeout = 5)
{
	struct fixture f;
	setup(&f, 1, -1, 4);
	struct proto_device d = { .name = "test GPU" };
	say(&f.runner, MSG_HELLO, 0, 0, &d, sizeof(d));
	say(&f.runner, MSG_CASE_BEGIN, 0, 0, NULL, 0);
	say(&f.runner, MSG_ERROR, 0, PROTO_STAGE_DEVICE, "no GPU", 6);
	session_feed(&f.s, FROM_RUNNER, f.runner.data, f.runner.len);
	cr_assert_null(f.s.device_error);
	cr_assert_not_null(strstr(f.r.cases[0].message, "forged"));
	teardown(&f);
}
