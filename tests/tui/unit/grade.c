#include <criterion/criterion.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/tui/unit/helpers.h"
#include "tui/grade.h"
#include "tui/proc.h"
#include "lib/util.h"
#include "tui/watch.h"

/*
 * The bound on a wait for what must happen soon (a fake grader's few lines, a killed process gone): a
 * loaded machine may take seconds, and the bound costs nothing when things go right. Each test's
 * .timeout is above it.
 */
#define SOON_MS 60000

/* Pump a job until it ends, as the main loop does. */
static void
finish(struct grading *g)
{
	long long start = now_ms();

	while (!grade_pump(g)) {
		struct pollfd fds[2];
		int n = job_pollfds(&g->job, fds);

		poll(fds, (nfds_t)n, 100);
		cr_assert_lt(now_ms() - start, SOON_MS, "the job did not end");
	}
}

static char *
fake_grader(const char *dir, const char *body)
{
	char *path = path_join(dir, "fake-grader");

	write_text(dir, "fake-grader", body);
	chmod(path, 0755);
	return path;
}

Test(grade, progress_lines_become_steps_and_the_rest_text, .timeout = 120)
{
	struct grading g;
	char *text = read_file(FIXTURE("progress.txt"), NULL), *save = NULL;

	memset(&g, 0, sizeof(g));
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		grade_take_line(&g, l);
	cr_assert_eq(g.nsteps, 4);
	cr_assert_str_eq(g.steps[0].stage, "compile");
	cr_assert_str_eq(g.steps[1].message, "running 3 cases");
	cr_assert(g.steps[2].is_case && g.steps[2].passed);
	cr_assert_str_eq(g.steps[3].name, "31x33");
	cr_assert_not(g.steps[3].passed);
	cr_assert_str_eq(g.text.data, "warning: a plain line from the grader\n{\"event\":\"something_new\",\"x\":1}\n");
	grade_free(&g);
	free(text);
}

Test(grade, a_grading_end_to_end_with_a_fake_grader, .timeout = 120)
{
	char *dir = temp_dir(), *cwd = getcwd(NULL, 0);
	char *script = xasprintf(
		"#!/bin/sh\n"
		"[ \"$1 $2 $3 $4\" = 'grade col_sums --json --progress' ] || exit 2\n"
		"echo '{\"event\":\"stage\",\"stage\":\"compile\",\"message\":\"in '\"$PWD\"'\"}' >&2\n"
		"echo '{\"event\":\"case\",\"index\":1,\"count\":1,\"name\":\"1x1\",\"passed\":true}' >&2\n"
		"cat '%s/" FIXTURE("grade-pass-sim.json") "'\n", cwd);
	char *grader = fake_grader(dir, script);
	struct grading g;
	struct result r;

	free(script);
	free(cwd);
	cr_assert_eq(grade_start(&g, grader, dir, "col_sums"), 0, "%s", last_error());
	cr_assert(grade_running(&g));
	finish(&g);
	cr_assert_not(grade_running(&g));
	cr_assert_eq(g.nsteps, 2);
	/* it ran in the workbook root */
	cr_assert(strstr(g.steps[0].message, dir), "%s", g.steps[0].message);
	grade_result(&g, &r);
	cr_assert_eq(r.exit_status, 0);
	cr_assert(r.pass);
	cr_assert_str_eq(r.backend, "sim");
	result_free(&r);
	grade_free(&g);
	free(grader);
	free(dir);
}

Test(grade, a_grader_without_a_report_is_reported, .timeout = 120)
{
	char *dir = temp_dir();
	char *grader = fake_grader(dir, "#!/bin/sh\necho 'cudalings: no exercise called nope' >&2\nexit 2\n");
	struct grading g;
	struct result r;

	cr_assert_eq(grade_start(&g, grader, dir, "nope"), 0);
	finish(&g);
	grade_result(&g, &r);
	cr_assert_eq(r.exit_status, 2);
	cr_assert_not(r.pass);
	cr_assert_str_eq(r.stderr_text, "cudalings: no exercise called nope\n");
	cr_assert_str_eq(r.message, "the grader printed no report");
	result_free(&r);
	grade_free(&g);
	free(grader);
	free(dir);
}

/* Whether pid runs: not gone, and not a zombie. */
static bool
alive(pid_t pid)
{
	char path[64], buf[512], *paren;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "r")))
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
}

Test(grade, cancel_kills_the_whole_process_group, .timeout = 120)
{
	char *dir = temp_dir();
	/* a grader that started a runner that hangs */
	char *grader = fake_grader(dir, "#!/bin/sh\nsleep 60 &\necho $! > runner.pid\nsleep 60\n");
	char *pidfile = path_join(dir, "runner.pid"), *text = NULL;
	struct grading g;
	pid_t group, runner;

	cr_assert_eq(grade_start(&g, grader, dir, "x"), 0);
	group = g.job.pid;
	/* the whole line: the file exists, empty, from the shell's > until echo has written to it */
	for (long long start = now_ms(); now_ms() - start < SOON_MS; usleep(10000)) {
		free(text);
		if ((text = read_file(pidfile, NULL)) && strchr(text, '\n'))
			break;
	}
	cr_assert(text && strchr(text, '\n'), "the fake grader never wrote its runner's pid: '%s'", text ? text : "");
	runner = atoi(text);
	cr_assert_gt(runner, 0);
	cr_assert_eq(kill(runner, 0), 0);
	grade_cancel(&g);
	cr_assert_not(grade_running(&g));
	/* the runner was in the group: dead too (a zombie at most, until init reaps it) */
	for (long long start = now_ms(); now_ms() - start < SOON_MS && alive(runner);)
		usleep(10000);
	cr_assert_not(alive(runner), "the runner %d outlived the cancel", (int)runner);
	cr_assert_not(alive(group));
	grade_free(&g);
	free(text);
	free(pidfile);
	free(grader);
	free(dir);
}

Test(watch, a_save_by_rename_is_seen, .timeout = 120)
{
	char *dir = temp_dir(), *file = path_join(dir, "ex.cu"), *tmp = path_join(dir, ".ex.cu.swp");
	struct watch w = WATCH_INIT;

	write_text(dir, "ex.cu", "starter\n");
	cr_assert_eq(watch_start(&w, file), 0, "%s", last_error());
	cr_assert(watch_active(&w));
	cr_assert_not(watch_changed(&w));
	/* another file in the directory is not ours */
	write_text(dir, "other.cu", "x\n");
	cr_assert_not(watch_changed(&w));
	/* written in place */
	write_text(dir, "ex.cu", "edited\n");
	cr_assert(watch_changed(&w));
	cr_assert_not(watch_changed(&w));
	/* as vim does it: a new file renamed over the old one */
	write_text(dir, ".ex.cu.swp", "renamed\n");
	cr_assert_not(watch_changed(&w));
	cr_assert_eq(rename(tmp, file), 0);
	cr_assert(watch_changed(&w));
	watch_stop(&w);
	cr_assert_not(watch_active(&w));
	free(tmp);
	free(file);
	free(dir);
}
