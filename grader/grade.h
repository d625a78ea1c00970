/*
 * Grading one submission: build it, run it in a child next to the judge,
 * compare, time, and come to a verdict. The verdict is made here, in the
 * parent, from raw outputs; nothing the student's process says can pass it.
 */
#ifndef CUDALINGS_GRADE_H
#define CUDALINGS_GRADE_H

#include <stdbool.h>
#include <stdint.h>
#include "build.h"
#include "manifest.h"

struct grade_options {
	const char *file;       /* the student's file; NULL for exercises/NAME.cu */
	const char *display;    /* how the student named it, for messages; NULL: as file */
	enum backend backend;
	bool backend_given;     /* else: the GPU when there is one, the simulator otherwise */
	uint64_t seed;          /* 0: a fresh one */
	bool progress;          /* JSON lines on stderr as it goes */
	bool skip_timing;
};

struct case_result {
	char name[64];
	bool timed, ran, passed;
	size_t mismatches;
	bool wrong;      /* a correctness failure nothing mismatched shows: a race, a changed input */
	char *message;
};

struct diagnostic {
	char *kind;
	char *message;
};

struct timing_result {
	bool measured;
	double median_us, reference_us, copy_us, threshold_us, wall_us;
	double ratio, ratio_lo, ratio_hi, threshold_ratio;
	double gbps, copy_gbps, peak_gbps, gflops;
	bool absolute; /* the threshold came from the per-GPU table */
	int rounds, measurements;
};

struct grade_result {
	const struct exercise *e;
	char *file;
	enum backend backend;
	char *device;
	char arch[16];      /* what the GPU code was built for, e.g. sm_90 */
	bool pass;
	const char *stage;  /* compile, run, correctness, performance, or NULL */
	char *message;
	char *note;
	char *compile_output;
	char *program_output; /* what the student's program printed */
	struct case_result cases[MANIFEST_MAX_CASES + 1];
	int ncases;
	const char *performance; /* pass, fail, not_measured */
	struct timing_result timing;
	struct diagnostic diagnostics[16];
	int ndiagnostics;
	const char *hint;
};

/* Whether this machine has an NVIDIA GPU the driver exposes. */
bool gpu_present(void);

/*
 * Grade; fills *r. Returns the exit status: 0 pass, 1 fail, 3 when the
 * environment stops it (no toolkit, no GPU when one was asked for, a broken
 * build of instructor code), with r->message saying which.
 */
int grade_run(const struct exercise *e, const struct grade_options *o, struct grade_result *r);
void grade_release(struct grade_result *r);

#endif
