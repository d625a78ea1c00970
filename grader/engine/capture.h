/*
 * The capture process of a grading on a GPU (grader/engine/capture.c): the one
 * child that runs the submission's host code. It records the launcher's
 * calls as plans (harness/capture.cpp); the grader checks them and hands
 * them to the measuring runner, which never runs a byte of that code.
 */
#ifndef CUDALINGS_CAPTURE_H
#define CUDALINGS_CAPTURE_H

#include <stdbool.h>
#include "lib/args.h"
#include "lib/run.h"
#include "grader/engine/session.h"

/*
 * Start the capture process: argv is its program, options and cases (the
 * measuring runner's cases, in the same order), its channel at channel_fd.
 * Early, it opens the GPU and waits for capture_finish before it loads the
 * submission. Its messages go to s as FROM_CAPTURE. 0, or -1 when it could
 * not start.
 */
int capture_start(struct child *c, struct session *s, char *const *argv, int channel_fd, bool early);

/* Let it load the submission and record every case; returns when it has ended, s told how. */
void capture_finish(struct child *c, struct session *s, bool early);

/*
 * Check its plans in case order (harness/plan.c) and write them, as the measuring runner reads them,
 * to `path`. 0; or -1, with the refusal in s->refused (or case 0 failed when the file cannot be
 * written).
 */
int capture_write_plans(struct session *s, const char *path);

/* Add its program and options before the cases: no seed, the student's shared object and its launcher's name. */
void capture_options(struct args *argv, const char *program, const char *library, const char *launcher, int channel_fd);

/* capture_finish, then its plans checked and written to `plans`: whether the measuring runner may go. */
bool capture_run(struct child *c, struct session *s, bool early, const char *plans);

#endif
