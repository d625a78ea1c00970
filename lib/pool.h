/*
 * pool: many children, at most `max` at a time (git's
 * run_processes_parallel): the one way the project runs work side by side
 * (prepare's builds, the mutants' gradings, a batch's lanes). The caller
 * starts each job with the spawner (child_spawn for a program,
 * child_start_function for a worker), so every job is a child as any other:
 * its own group, the death signal, the watchdog, its output captured as asked.
 * The pool waits, reads, reaps, and hands each job back as it ends. An error
 * from a callback, or with catch_signals a SIGINT or SIGTERM, stops the pool:
 * no job is started after it, those running are stopped, and every job has
 * ended when pool_run returns.
 *
 *	static int next(struct pool *p, struct pool_job *j)
 *	{
 *		struct work *w = p->ctx;
 *		if (w->done == w->n)
 *			return POOL_NO_JOB;
 *		j->index = w->done++;
 *		return child_spawn(&j->child, w->argv[j->index], &w->spawn) ? EXIT_ENVIRONMENT : 0;
 *	}
 *	static int finished(struct pool *p, struct pool_job *j)
 *	{
 *		… j->child.output, child_exit_code(&j->child), j->abandoned …
 *		return 0;			// or a status that stops the pool
 *	}
 *	struct pool p = { .max = 4, .next = next, .finished = finished, .ctx = &w };
 *	int status = pool_run(&p);	// 0, the status that stopped it, or 128 + a signal
 */
#ifndef LIB_POOL_H
#define LIB_POOL_H

#include <stdbool.h>

#include "lib/run.h"

/* next()'s answer when it has no job to start now: asked again once one ends; none running, the pool ends */
#define POOL_NO_JOB (-1)

struct pool_job {
	struct child child;	/* next() starts it; the pool releases it after finished() */
	int slot;		/* its place in the pool, 0 to max - 1, the same while it runs (a lane's GPU) */
	int index;		/* the caller's, set by next(): which file, which student */
	bool abandoned;		/* the pool was stopping when it ended: it was stopped, or ended after the stop */
};

struct pool;
/* Start a job in j->child (j->slot is set): 0, POOL_NO_JOB, or an exit status above 0 that stops the pool. */
typedef int pool_next_fn(struct pool *p, struct pool_job *j);
/*
 * j has ended: reaped, its output read. 0 to go on, or an exit status that
 * stops the pool. Called for abandoned jobs too (to give back what next()
 * took); what they return is not heeded.
 */
typedef int pool_finished_fn(struct pool *p, struct pool_job *j);

struct pool {
	/* the caller's */
	int max;			/* jobs at once; below 1 for 1 */
	pool_next_fn *next;
	pool_finished_fn *finished;
	void (*tick)(struct pool *p);	/* after each wait (a progress bar); may be NULL */
	void *ctx;
	double stop_grace_s;		/* a stop is SIGTERM to each job's group, then SIGKILL after this; 0: SIGKILL */
	bool catch_signals;		/* SIGINT and SIGTERM stop the pool while it runs; else they are the program's */
	/* the pool's */
	int running;			/* jobs running now (next() may wait for the first to end: POOL_NO_JOB) */
	int interrupted;		/* the signal that stopped it; 0 for none */
};

/*
 * Run jobs until next() has none and none runs, or until a stop. Returns 0,
 * the first status above 0 from next() or finished(), or 128 + the signal
 * that stopped it (catch_signals).
 */
int pool_run(struct pool *p);

#endif
