/*
 * pool: children side by side, at most max at a time (see pool.h): which
 * slot is free, waiting for one to end, handing it back, stopping them all.
 */
#include "lib/pool.h"

#include <signal.h>
#include <stdlib.h>

#include "lib/run_private.h"
#include "lib/util.h"

static volatile sig_atomic_t interrupted;

static void
on_signal(int sig)
{
	interrupted = sig;
}

/* A job has ended (or was stopped): handed back, then its child released. */
static int
hand_back(struct pool *p, struct pool_job *j, bool *busy, bool abandoned)
{
	j->abandoned = abandoned;
	*busy = false;
	p->running--;
	int status = p->finished ? p->finished(p, j) : 0;
	child_release(&j->child);
	return status;
}

int
pool_run(struct pool *p)
{
	int max = p->max < 1 ? 1 : p->max, status = 0;
	struct pool_job *jobs = xcalloc((size_t)max, sizeof(*jobs));
	bool *busy = xcalloc((size_t)max, sizeof(*busy));
	struct child **kids = xcalloc((size_t)max, sizeof(*kids));
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	if (p->catch_signals) {
		sigaction(SIGINT, &sa, &old_int);
		sigaction(SIGTERM, &sa, &old_term);
	}
	p->running = 0;
	p->interrupted = 0;
	for (;;) {
		for (int i = 0; i < max && !status && !interrupted; i++) {
			if (busy[i])
				continue;
			jobs[i] = (struct pool_job){ .slot = i };
			int r = p->next(p, &jobs[i]);
			if (r == POOL_NO_JOB)
				break;
			if (r) {
				status = r;
			} else {
				busy[i] = true;
				p->running++;
			}
		}
		if (!p->running)
			break;
		if (interrupted || status) {
			for (int i = 0; i < max; i++)
				if (busy[i]) {
					if (p->stop_grace_s > 0)
						child_stop(&jobs[i].child, p->stop_grace_s);
					else
						child_kill(&jobs[i].child);
					hand_back(p, &jobs[i], &busy[i], true);
				}
			break;
		}
		int n = 0;
		for (int i = 0; i < max; i++)
			if (busy[i])
				kids[n++] = &jobs[i].child;
		run_pump(kids, n, 0.1, true);
		for (int i = 0; i < max && !interrupted; i++)
			if (busy[i] && !jobs[i].child.running) {
				int r = hand_back(p, &jobs[i], &busy[i], status != 0);
				if (!status)
					status = r;
			}
		if (p->tick)
			p->tick(p);
	}
	if (p->catch_signals) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
	}
	p->interrupted = interrupted;
	free(kids);
	free(busy);
	free(jobs);
	return interrupted ? 128 + interrupted : status;
}
