/*
 * cudalings prepare: build every exercise's runner and judge ahead of its
 * first grading, several at once. A first grading otherwise starts with
 * several seconds of nvcc on the instructor's side (the harness, the check,
 * the reference and gold solutions); `make` and `make tui` run this, so the
 * first edit a student grades is as quick as the tenth. Up to date, it costs
 * a look at each build's command file.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grader/cmd/command.h"
#include "lib/exit.h"
#include "lib/pool.h"
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

/* The builds after the first, `jobs` at a time, each in a worker of its own. */
struct builds {
	const struct exercise **todo;
	int n, next;
	enum backend backend;
	const struct exercise *current;	/* the one the worker forked next builds */
};

static int
build_in_worker(void *arg, int channel_fd)
{
	(void)channel_fd;
	const struct builds *w = arg;
	return prepare_one(w->current, w->backend) ? 1 : 0;
}

static int
start_build(struct pool *p, struct pool_job *j)
{
	struct builds *w = p->ctx;
	while (w->next < w->n) {
		j->index = w->next++;
		w->current = w->todo[j->index];
		/*
		 * Its messages go where the grader's own go. Should the grader die, or the pool stop it, it gets
		 * a SIGTERM: it stops its compilers and removes what they half made, as a Ctrl-C of it would.
		 */
		struct spawn_options o = { .death_signal = SIGTERM };
		if (!child_start_function(&j->child, build_in_worker, w, &o))
			return 0;
		/* no worker to be had: built here, as the first was */
		if (prepare_one(w->current, w->backend))
			return EXIT_ENVIRONMENT;
	}
	return POOL_NO_JOB;
}

/* A build has ended: a failure stops the others. */
static int
build_finished(struct pool *p, struct pool_job *j)
{
	(void)p;
	return child_succeeded(&j->child) ? 0 : EXIT_ENVIRONMENT;
}

static int
cmd_prepare(const struct parsed_args *a)
{
	struct grade_options o = { 0 };
	int status = command_choose_backend(&o, options_value(a, "backend"));
	if (status)
		return status;
	long jobs = sysconf(_SC_NPROCESSORS_ONLN);
	const char *jobs_text = options_value(a, "jobs");
	if (jobs_text) {
		char *end;
		jobs = strtol(jobs_text, &end, 10);
		if (*end || end == jobs_text || jobs < 1 || jobs > 256)
			return command_usage_error("--jobs takes a whole number from 1 to 256, not '%s'", jobs_text);
	}
	if (jobs < 1)
		jobs = 1;
	struct manifest *m = command_manifest();
	if (build_headers(m))
		return EXIT_ENVIRONMENT;
	const struct exercise **todo = xcalloc((size_t)m->count + 1, sizeof(*todo));
	int n = 0;
	for (int i = 0; i < m->count; i++)
		if (m->items[i].kind == ITEM_EXERCISE)	/* a demo runs variants, a lesson nothing */
			todo[n++] = &m->items[i];
	if (!options_given(a, "quiet") && n)
		fprintf(stderr, "preparing %d exercises for the %s backend (once: later it is quick)\n", n,
			build_backend_name(o.backend));
	fflush(NULL);
	bool ok = true;
	/* the first builds what every runner shares (the harness), so the others never build it twice */
	if (n)
		ok = prepare_one(todo[0], o.backend) == 0;
	struct builds w = { .todo = todo, .n = n, .next = 1, .backend = o.backend };
	struct pool p = { .max = (int)jobs, .next = start_build, .finished = build_finished, .ctx = &w,
			  .stop_grace_s = 5 };
	if (ok)
		ok = pool_run(&p) == 0;
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
