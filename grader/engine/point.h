/*
 * point: an exercise's point checked on a GPU, by the rule the simulator
 * applies (budgets_on_gpu in workbook.json). Nsight Compute measures one
 * launch of the timed case, the student's kernels and nothing else, in a
 * process started beside the compile so that ncu's start costs no wait;
 * the grader reads ncu's own log file, written by ncu's front end.
 *
 *	point_begin(&p, e, backend, runner_options, channel_fd, timed);   // early, beside the compile
 *	… the graded run, its timing once point_quiet(&p), pumping p.ncu …
 *	point_go(&p);                         // when the graded runner said it is done
 *	point_finish(&p, &session, wanted);   // figures into s->r->figures, the state into s->r->point
 *	point_release(&p);
 */
#ifndef CUDALINGS_POINT_H
#define CUDALINGS_POINT_H

#include <stdbool.h>
#include "lib/run.h"
#include "grader/exercise/manifest.h"
#include "grader/engine/session.h"

/* Kernels Nsight Compute measures in one launch of the launcher; one more is refused, not ignored. */
#define POINT_MAX_KERNELS 32
/* From the go to ncu's end: the profiled launch and its replays. */
#define POINT_LIMIT_S 60
/* The longest the graded run's timing waits for the point's process to warm up (ncu's start, the
   context, its first profiled launch: 1.8 s on an H100); past it, the timing goes on regardless. */
#define POINT_WARM_LIMIT_S 6

struct point_run {
	struct child ncu;
	bool begun;    /* the exercise asks for it, on a GPU: its state is said in the verdict */
	bool started;  /* ncu runs */
	char dir[64];  /* ncu's log lies here: a folder of the grader's, made fresh */
	char *log;
	char *why_not; /* set when the point cannot be checked on this machine */
	bool warm;     /* its process said HELLO: the warm-up is done, and it waits for the go */
	bool go_sent;
};

/*
 * The command of the process that runs the timed launch once, waiting for
 * a byte on its input first (you own it; argv_free). Until the
 * measuring side of the split exists, the runner with the timed size as a
 * plain case; the one place that changes when it lands.
 */
char **point_process_argv(const struct exercise *e, char *const *runner_options);

/*
 * On a GPU, for an exercise with budgets_on_gpu (else nothing; once only):
 * start Nsight Compute over point_process_argv, early; channel_fd is the
 * descriptor that process writes its protocol on (read and dropped). When
 * ncu is not beside nvcc, p->why_not says so and nothing starts. The
 * process warms ncu up first; the rounds wait for it, and its go comes
 * after them. `timed` false (--no-timing): nothing starts, and the verdict
 * says the point was not checked: it is measured on the timed case, which
 * such a grading does not run (the capture records no plan for it).
 */
void point_begin(struct point_run *p, const struct exercise *e, enum backend backend, char *const *runner_options,
		 int channel_fd, bool timed);
/*
 * Whether the graded run may time now: the point's process is warm (it runs
 * nothing more on the GPU until its go), or gone, or never ran, or has been
 * warming up for POINT_WARM_LIMIT_S. p->ncu must be pumped for it to change.
 */
bool point_quiet(const struct point_run *p);
/*
 * Let the process load the submission and run its launch, once, if it has
 * said HELLO (point_finish does it otherwise, after waiting for HELLO).
 */
void point_go(struct point_run *p);
/*
 * Let the process run its launch, wait for ncu, and read its log: the
 * figures into s->r->figures and the state into s->r->point. `wanted`
 * false (the cases failed, the grading stopped): stop it unread. Nothing
 * when it was never begun.
 */
void point_finish(struct point_run *p, struct session *s, bool wanted);
void point_release(struct point_run *p);

/* Nsight Compute's log: its figures into *c (diagnose_parse_ncu), without the warm-up launch the
 * process profiled first, or -1 and *why (you own it) when it measured nothing. */
int point_read_log(const char *log, struct proto_counts *c, char **why);

#endif
