/*
 * cudalings prepare: build every exercise's runner and judge ahead of its
 * first grading, several at once. A first grading otherwise starts with
 * several seconds of nvcc on the instructor's side (the harness, the check,
 * the reference and gold solutions); `make` and `make tui` run this, so the
 * first edit a student grades is as quick as the tenth. Up to date, it costs
 * a look at each build's command file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grader/cmd/command.h"
#include "common/exit.h"
#include "lib/run.h"
#include "lib/util.h"

static const struct option_spec options[] = {
	OPT_VALUE("backend", "gpu|sim", "for which backend (default: the GPU when there is one, else the CPU simulator)"),
	OPT_VALUE("jobs", "N", "builds at once (default: the machine's cores)"),
	OPT_SWITCH("quiet", "say nothing when all goes well"),
	OPTIONS_END,
};

/* One exercise's runner and judge; 0, or -1 after printing the build's messages. */
static int
prepare_one(const struct exercise *e, enum backend b)
{
	struct buf log = BUF_INIT;
	int status = build_exercise(e, b, &log);
	if (status)
		error("cannot build the grader's side of '%s':\n%s", e->name, buf_str(&log));
	buf_free(&log);
	return status ? -1 : 0;
}

/* Wait for one of the builds started; whether it went well. */
static bool
reap_one(void)
{
	int status;
	if (wait(&status) < 0)
		return true;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int
cmd_prepare(const struct parsed_args *a)
{
	struct grade_options o = { 0 };
	int status = choose_backend(&o, option_value(a, "backend"));
	if (status)
		return status;
	long jobs = sysconf(_SC_NPROCESSORS_ONLN);
	const char *jobs_text = option_value(a, "jobs");
	if (jobs_text) {
		char *end;
		jobs = strtol(jobs_text, &end, 10);
		if (*end || end == jobs_text || jobs < 1 || jobs > 256)
			return usage_error("--jobs takes a whole number from 1 to 256, not '%s'", jobs_text);
	}
	if (jobs < 1)
		jobs = 1;
	struct manifest *m = workbook_manifest();
	if (build_headers(m))
		return EXIT_ENVIRONMENT;
	const struct exercise **todo = xcalloc((size_t)m->count + 1, sizeof(*todo));
	int n = 0;
	for (int i = 0; i < m->count; i++)
		if (m->items[i].kind == ITEM_EXERCISE)	/* a demo runs variants, a lesson nothing */
			todo[n++] = &m->items[i];
	if (!option_given(a, "quiet") && n)
		fprintf(stderr, "preparing %d exercises for the %s backend (once: later it is quick)\n", n,
			backend_name(o.backend));
	fflush(NULL);
	bool ok = true;
	/* the first builds what every runner shares (the harness), so the others never build it twice */
	if (n)
		ok = prepare_one(todo[0], o.backend) == 0;
	long running = 0;
	for (int i = 1; i < n && ok; i++) {
		if (running == jobs) {
			ok &= reap_one();
			running--;
		}
		pid_t pid = run_fork();
		if (pid < 0) {
			ok = prepare_one(todo[i], o.backend) == 0;
			continue;
		}
		if (pid == 0)
			_exit(prepare_one(todo[i], o.backend) ? 1 : 0);
		running++;
	}
	while (running-- > 0)
		ok &= reap_one();
	free(todo);
	return ok ? EXIT_PASS : EXIT_ENVIRONMENT;
}

const struct command command_prepare = {
	.name = "prepare",
	.operands = "",
	.min_operands = 0,
	.max_operands = 0,
	.takes = "no exercise",
	.summary = "build every exercise's grader side ahead of its first grading (make does)",
	.run = cmd_prepare,
	.options = options,
};
