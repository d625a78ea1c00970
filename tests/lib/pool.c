/*
 * The worker pool (lib/pool.c): each job's output and status handed back,
 * at most max at once; a failing job and an interrupt stop the others; a
 * worker runs a function; nothing the pool started outlives a kill -9 of it.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/exit.h"
#include "lib/pool.h"
#include "lib/util.h"
#include "tests/lib/children.h"

#define JOBS 10

/* What a test's pool did: the jobs it started, what each said, how each ended. */
struct work {
	int n, started, finished, peak, abandoned;
	const char *script[JOBS];	/* sh -c SCRIPT for job i; "" for an `echo job-I` */
	pid_t pid[JOBS];
	char *said[JOBS];
	int code[JOBS];
};

/* a deadline only a hang reaches: a job that is to end does so at once, on a loaded machine within seconds */
static struct spawn_options capture = { .out = SPAWN_CAPTURE, .err = SPAWN_TO_STDOUT, .timeout_s = SOON_S };

static int
start_script(struct pool *p, struct pool_job *j)
{
	struct work *w = p->ctx;
	if (w->started == w->n)
		return POOL_NO_JOB;
	j->index = w->started++;
	char *echo = xasprintf("echo job-%d", j->index);
	const char *script = w->script[j->index] && *w->script[j->index] ? w->script[j->index] : echo;
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	int status = child_spawn(&j->child, argv, &capture) ? EXIT_ENVIRONMENT : 0;
	free(echo);
	w->pid[j->index] = j->child.pid;
	if (p->running + 1 > w->peak)
		w->peak = p->running + 1;
	return status;
}

/* Keeps what the job said and how it ended; a job that failed stops the pool with its status. */
static int
keep(struct pool *p, struct pool_job *j)
{
	struct work *w = p->ctx;
	w->finished++;
	w->abandoned += j->abandoned;
	w->said[j->index] = xstrdup(j->child.output.data);
	w->code[j->index] = child_exit_code(&j->child);
	return j->abandoned ? 0 : w->code[j->index];
}

static void
work_free(struct work *w)
{
	for (int i = 0; i < JOBS; i++)
		free(w->said[i]);
}

Test(pool, each_job_hands_back_its_own_output_at_most_max_at_once, .timeout = 180)
{
	struct work w = { .n = JOBS };
	struct pool p = { .max = 3, .next = start_script, .finished = keep, .ctx = &w };
	cr_assert_eq(pool_run(&p), 0);
	cr_assert_eq(w.started, JOBS);
	cr_assert_eq(w.finished, JOBS, "every job handed back once");
	cr_assert_eq(w.peak, 3, "three at once, never more");
	cr_assert_eq(p.running, 0);
	for (int i = 0; i < JOBS; i++) {
		char *want = xasprintf("job-%d\n", i);
		cr_assert_str_eq(w.said[i], want, "job %d got its own output", i);
		cr_assert_eq(w.code[i], 0);
		free(want);
	}
	work_free(&w);
}

Test(pool, one_at_a_time_runs_in_order, .timeout = 180)
{
	struct work w = { .n = 4 };
	struct pool p = { .max = 0, .next = start_script, .finished = keep, .ctx = &w };
	cr_assert_eq(pool_run(&p), 0);
	cr_assert_eq(w.peak, 1, "max below 1 is one at a time");
	cr_assert_eq(w.finished, 4);
	work_free(&w);
}

Test(pool, a_failing_job_stops_the_others_and_starts_no_more, .timeout = 180)
{
	struct work w = { .n = JOBS, .script = { "exit 3", "exec sleep 100", "exec sleep 100" } };
	struct pool p = { .max = 3, .next = start_script, .finished = keep, .ctx = &w };
	cr_assert_eq(pool_run(&p), 3, "the failing job's status is the pool's");
	cr_assert_eq(w.started, 3, "no job started after the failure");
	cr_assert_eq(w.finished, 3, "the stopped ones handed back too");
	cr_assert_eq(w.abandoned, 2);
	cr_assert_eq(w.code[1], 128 + SIGKILL);
	for (int i = 1; i < 3; i++)
		cr_assert(gone(w.pid[i]), "job %d outlived the pool", i);
	work_free(&w);
}

Test(pool, a_stop_with_grace_asks_first, .timeout = 180)
{
	/* the first fails once the second has its trap in place (it says so with a file) */
	char *ready = fresh_path();
	char *first = xasprintf("until [ -e %s ]; do sleep 0.01; done; exit 4", ready);
	char *second = xasprintf("trap 'exit 7' TERM; : >%s; sleep 100 & wait", ready);
	struct work w = { .n = 2, .script = { first, second } };
	struct pool p = { .max = 2, .next = start_script, .finished = keep, .ctx = &w, .stop_grace_s = SOON_S };
	cr_assert_eq(pool_run(&p), 4);
	cr_assert_eq(w.code[1], 7, "it got SIGTERM and ended by itself");
	unlink(ready);
	free(ready);
	free(first);
	free(second);
	work_free(&w);
}

Test(pool, an_interrupt_stops_every_job_and_says_so, .timeout = 180)
{
	/* the third job sends SIGINT to this process (its parent), as a Ctrl-C would */
	struct work w = { .n = JOBS, .script = { "exec sleep 100", "exec sleep 100", "kill -INT $PPID; exec sleep 100" } };
	struct sigaction before, after;
	sigaction(SIGINT, NULL, &before);
	struct pool p = { .max = 3, .next = start_script, .finished = keep, .ctx = &w, .catch_signals = true };
	cr_assert_eq(pool_run(&p), 128 + SIGINT);
	cr_assert_eq(p.interrupted, SIGINT);
	cr_assert_eq(w.started, 3);
	cr_assert_eq(w.abandoned, 3);
	for (int i = 0; i < 3; i++)
		cr_assert(gone(w.pid[i]), "job %d outlived the interrupt", i);
	sigaction(SIGINT, NULL, &after);
	cr_assert_eq(after.sa_handler, before.sa_handler, "the program's own SIGINT handling is back");
	work_free(&w);
}

/* ------------------------------------------------------------ workers: a function in a copy of this program */

static void
collect(struct child *c, const char *data, size_t n)
{
	buf_add(c->ctx, data, n);
}

static int
square(void *arg, int channel_fd)
{
	int i = *(int *)arg;
	dprintf(channel_fd, "%d", i * i);
	printf("worker %d\n", i);
	return i % 2 ? 5 : 0;
}

struct squares {
	int next, arg[JOBS];
	struct buf said[JOBS];
	char *out[JOBS];
	int code[JOBS];
};

static int
start_square(struct pool *p, struct pool_job *j)
{
	struct squares *s = p->ctx;
	if (s->next == JOBS)
		return POOL_NO_JOB;
	j->index = s->next++;
	s->arg[j->index] = j->index;
	j->child = (struct child){ .label = "square", .on_channel = collect, .ctx = &s->said[j->index] };
	struct spawn_options o = { .out = SPAWN_CAPTURE, .channel = true, .timeout_s = SOON_S };
	return child_start_function(&j->child, square, &s->arg[j->index], &o) ? EXIT_ENVIRONMENT : 0;
}

static int
keep_square(struct pool *p, struct pool_job *j)
{
	struct squares *s = p->ctx;
	s->out[j->index] = xstrdup(j->child.output.data);
	s->code[j->index] = child_exit_code(&j->child);
	return 0;
}

Test(pool, workers_run_a_function_and_say_their_result, .timeout = 180)
{
	struct squares s = { 0 };
	for (int i = 0; i < JOBS; i++)
		buf_init(&s.said[i]);
	struct pool p = { .max = 4, .next = start_square, .finished = keep_square, .ctx = &s };
	cr_assert_eq(pool_run(&p), 0);
	for (int i = 0; i < JOBS; i++) {
		char *want = xasprintf("%d", i * i), *out = xasprintf("worker %d\n", i);
		cr_assert_str_eq(s.said[i].data, want, "worker %d's channel", i);
		cr_assert_str_eq(s.out[i], out, "worker %d's stdout, flushed as it ended", i);
		cr_assert_eq(s.code[i], i % 2 ? 5 : 0, "its return is its exit status");
		free(want);
		free(out);
		free(s.out[i]);
		buf_free(&s.said[i]);
	}
}

/* ------------------------------------------------------------ nothing outlives a kill -9 of the pool's owner */

static int report_fd = -1;

/* A worker that starts a shell whose own child (a grandchild of the worker) it names on the test's pipe; then waits. */
static int
start_a_grandchild(void *arg, int channel_fd)
{
	(void)arg;
	(void)channel_fd;
	struct child c = { .label = "sh" };
	char *argv[] = { "sh", "-c", "sleep 100 & echo $!; wait", NULL };
	struct spawn_options o = { .out = SPAWN_CAPTURE };
	if (child_spawn(&c, argv, &o))
		return 1;
	struct child *one = &c;
	while (!strchr(c.output.data, '\n') && child_pump(&one, 1, 0.05))
		;
	if (write(report_fd, c.output.data, c.output.len) != (ssize_t)c.output.len)
		return 1;
	pause();
	return 0;
}

static int
start_worker_once(struct pool *p, struct pool_job *j)
{
	int *started = p->ctx;
	if ((*started)++)
		return POOL_NO_JOB;
	struct spawn_options o = { .out = SPAWN_DISCARD };
	return child_start_function(&j->child, start_a_grandchild, NULL, &o) ? EXIT_ENVIRONMENT : 0;
}

static int
start_shell_once(struct pool *p, struct pool_job *j)
{
	int *started = p->ctx;
	if ((*started)++)
		return POOL_NO_JOB;
	/* the shell's child in its group; the shell says its pid straight on the test's pipe */
	char *argv[] = { "sh", "-c", "sleep 100 & echo $!; wait", NULL };
	struct spawn_options o = { .out = SPAWN_TO_FD, .out_fd = report_fd };
	return child_spawn(&j->child, argv, &o) ? EXIT_ENVIRONMENT : 0;
}

/* A helper process runs a pool of one job that leaves a grandchild; kill -9 of the helper must take it. */
static void
kill_9_leaves_nothing(pool_next_fn *next)
{
	int fds[2];
	cr_assert_eq(pipe(fds), 0);
	pid_t helper = fork();
	cr_assert_geq(helper, 0);
	if (helper == 0) {
		close(fds[0]);
		report_fd = fds[1];
		int started = 0;
		struct pool p = { .max = 1, .next = next, .ctx = &started };
		_exit(pool_run(&p));
	}
	close(fds[1]);
	char said[32] = "";
	cr_assert_gt(read(fds[0], said, sizeof(said) - 1), 0, "the grandchild's pid, said as text");
	pid_t grandchild = atoi(said);
	close(fds[0]);
	cr_assert_gt(grandchild, 0);
	cr_assert_not(gone(grandchild));
	kill(helper, SIGKILL);
	waitpid(helper, NULL, 0);
	cr_assert(gone_within(grandchild, SOON_S), "the grandchild %d outlived a kill -9 of the pool", (int)grandchild);
}

Test(pool, the_watchdog_kills_what_a_worker_started, .timeout = 180)
{
	kill_9_leaves_nothing(start_worker_once);
}

Test(pool, the_watchdog_kills_what_a_job_left_in_its_group, .timeout = 180)
{
	kill_9_leaves_nothing(start_shell_once);
}
