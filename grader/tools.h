/*
 * The children of a grading besides the compilers (grader/tools.c): their
 * command lines, and the GPU's own tools run over the runner.
 */
#ifndef CUDALINGS_TOOLS_H
#define CUDALINGS_TOOLS_H

#include <stdbool.h>
#include "manifest.h"
#include "proc.h"
#include "session.h"

/* How to start the runner: its options before the cases (program first), and its channel. */
struct runner_command {
	char **options; /* NULL-terminated: the runner, --channel, --seed, --student … */
	int channel_fd;
};

/*
 * options, then e's cases: every correctness case, and the timed case with
 * its judged round when `timed`; or the timed size alone as a plain case.
 * You own the result (tools_free_argv).
 */
char **tools_argv(const struct exercise *e, char *const *options, bool timed, int check_round, bool timed_size_only);
void tools_free_argv(char **argv);

/* compute-sanitizer's memcheck, racecheck and synccheck over the correctness cases. */
void tools_sanitize(struct session *s, const struct runner_command *cmd);
/* Whether Nsight Compute is beside nvcc. */
bool tools_profile_available(void);
/* Nsight Compute's figures for the student's kernels at the timed size, into s->r->figures. */
void tools_profile(struct session *s, const struct runner_command *cmd);

#endif
