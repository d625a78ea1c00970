/*
 * Grading one submission: build it, run it in a child next to the judge,
 * compare, time, and come to a verdict. The verdict is made here, in the
 * parent, from raw outputs; nothing the student's process says can pass it.
 * The orchestrator's API only: what a grading finds is grader/result.h.
 */
#ifndef CUDALINGS_GRADE_H
#define CUDALINGS_GRADE_H

#include <stdbool.h>
#include <stdint.h>

#include "grader/engine/progress.h"
#include "grader/result.h"

struct grade_options {
	const char *file;       /* the student's file; NULL for exercises/NAME.cu */
	const char *display;    /* how the student named it, for messages; NULL: as file */
	enum backend backend;
	bool backend_given;     /* else: the GPU when there is one, the simulator otherwise */
	uint64_t seed;          /* 0: a fresh one */
	enum progress_mode progress; /* what is said as it goes: JSON lines, a terminal's line, nothing */
	bool skip_timing;
	bool skip_frontend;     /* sim: nvcc's front end does not read the file (a mutant of code it accepts) */
	bool sanitize;          /* gpu: also run the cases under compute-sanitizer */
	bool profile;           /* gpu: also measure the timed case with Nsight Compute */
	bool lines;             /* gpu: also measure the timed case's source lines with Nsight Compute */
};

/*
 * Grade; fills *r. Returns the exit status: 0 pass, 1 fail, 3 when the
 * environment stops it (no toolkit, no GPU when one was asked for, a broken
 * build of instructor code), with r->message saying which.
 */
int grade_run(const struct exercise *e, const struct grade_options *o, struct grade_result *r);
void grade_release(struct grade_result *r);

#endif
