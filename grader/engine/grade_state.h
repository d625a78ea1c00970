/*
 * One grading's state, shared by its stages (grader/engine/grade.c) and the
 * children that run the submission (grader/engine/grade_children.c).
 */
#ifndef CUDALINGS_GRADE_STATE_H
#define CUDALINGS_GRADE_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "grader/engine/grade.h"
#include "grader/engine/point.h"
#include "grader/engine/session.h"
#include "grader/compile/submission.h"
#include "grader/engine/cmdline.h"

enum step { STEP_OK, STEP_VERDICT, STEP_ENVIRONMENT };

struct grade_state {
	const struct exercise *e;
	const struct grade_options *o;
	struct grade_result *r;
	struct session s;
	struct student_build b;
	uint64_t seed;
	int check_round;
	char seed_text[32];
	int measured_dims[PROTO_MAX_DIMS]; /* sim: the timed case made small, for the memory figures */
	bool has_measured;
	struct child frontend; /* sim: nvcc's front end, running beside the rest */
	bool frontend_running;
	bool includes_refused; /* the file reached for the grader's files: that is its verdict, whatever nvcc says */
	bool nvcc_accepted;    /* sim: nvcc's front end read the file and found nothing wrong */
	int last_case;         /* the case the runner's deadline was last set for */
	struct runner_command cmd;
	char channel_text[16], threshold_text[32];
	struct child runner;   /* gpu: started while the file compiles, so the GPU's start costs no wait */
	bool runner_started, go_sent;
	struct child capture;  /* gpu: the process that runs the submission's host code, started with the runner */
	bool capture_started, capture_early;
	struct point_run point; /* gpu, budgets_on_gpu: Nsight Compute over one launch, started with the runner */
	bool timing_held;      /* the runner waits for a byte before timing: sent once the point's process is quiet */
	int status;            /* exit status when the environment stops the grading */
};

/* The runner's options (and on a GPU the capture process's) into cmd, before the cases. */
void runner_options(struct grade_state *g, struct runner_command *cmd, char *channel_text, char *threshold_text);
/*
 * Start the runner, and on a GPU the capture process beside it. Early (while the student's file
 * compiles), each opens the GPU and installs its filter, then waits for a byte on its input before it
 * loads anything. 0, or -1 when one could not start.
 */
int runner_start(struct grade_state *g, bool early);
/*
 * GPU: the capture process records the launcher's calls, and the grader checks them and writes them
 * for the measuring runner. Whether the runner may go on: not after a refusal, a forgery or a crash of
 * the capture (the session says which), when the runner is stopped unheard.
 */
bool capture_stage(struct grade_state *g);
/* What a child printed, after what another printed before it (the capture process's, then the runner's). */
void program_output(struct grade_state *g, const struct child *c);

#endif
