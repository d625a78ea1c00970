/*
 * The children of a grading besides the compilers (grader/engine/cmdline.c): their
 * command lines, and the GPU's own tools run over the runner.
 */
#ifndef CUDALINGS_CMDLINE_H
#define CUDALINGS_CMDLINE_H

#include <stdbool.h>
#include "grader/exercise/manifest.h"
#include "lib/args.h"
#include "lib/run.h"
#include "grader/engine/session.h"

/*
 * How to start the runner: its options before the cases (program first), and its channel. On a GPU
 * the runner is the measuring process and the capture process runs the submission's host code: its
 * options too, and its channel.
 */
struct runner_command {
	struct args options; /* the runner, --channel, --seed, --student or --device-code … */
	int channel_fd;
	struct args capture_options; /* GPU: the capture process, --channel, --student, --launcher; none on sim */
	int capture_fd;
};

enum argv_cases {
	ARGV_GRADED,          /* every correctness case */
	ARGV_GRADED_TIMED,    /* and the timed case, with check_round its judged round */
	ARGV_TOOL_CASES,      /* the correctness cases under a GPU tool */
	ARGV_TOOL_TIMED_SIZE, /* the correctness cases, then the timed size as a plain case, under a GPU tool
				 (the runner profiles that last case alone, and sends none of its outputs) */
};

/*
 * Add e's cases as `which` says, after the options argv holds already, and
 * (graded, when not NULL) the simulator's measured case of `measured` dims
 * after the correctness cases.
 */
void cmdline_add_cases(struct args *argv, const struct exercise *e, enum argv_cases which, int check_round,
		       const int *measured);

/*
 * The timed case made small enough for the simulator, yet with at least two
 * blocks in every dimension its grid spans (so a mapping across blocks shows):
 * 1D 2^16 elements; 2D 128 rows × 1056 columns; a product 64 × k × 64;
 * never longer than the timed case, whole warps. The simulator's memory
 * figures (the counts the budgets judge and the heat map) come from this case
 * alone, over the first 32 blocks of each launch (grader/engine/cmdline.c says why).
 */
void cmdline_measured_dims(const struct exercise *e, int *dims);

/* compute-sanitizer's memcheck, racecheck and synccheck over the correctness cases. */
void cmdline_sanitize(struct session *s, const struct runner_command *cmd);
/* Whether Nsight Compute is beside nvcc. */
bool cmdline_profile_available(void);
/* Nsight Compute's figures for the student's kernels at the timed size, into s->r->figures. */
void cmdline_profile(struct session *s, const struct runner_command *cmd);
/* Nsight Compute's source counters per line of the student's file (`paths`: its names as compiled), into s->r->lines. */
void cmdline_lines(struct session *s, const struct runner_command *cmd, const char *const *paths);

#endif
