/*
 * What the runner and the judge share: the command line the grader gives
 * both, the inputs drawn from the seed, and writing framed messages.
 */
#ifndef CUDALINGS_CASES_H
#define CUDALINGS_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "harness/check.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the manifest's cases, the timed case and its judged round, with room to spare */
#define CASES_MAX 64

struct run_config {
	uint64_t *seed;          /* the secret seed, alone in a page no code may read but cases_seed's (the
				    submission's host code runs in the runner's process on the simulator) */
	int channel_fd;          /* where messages go */
	int ncases;              /* correctness cases, then the timed one if any */
	int dims[CASES_MAX][PROTO_MAX_DIMS];
	uint32_t stream[CASES_MAX]; /* which inputs case i draws: its index, but for a judged round */
	int timed;               /* index of the timed case, or -1; case timed + 1 is one of its rounds */
	int estimate_at[PROTO_MAX_DIMS]; /* simulator: the timed case's sizes, at which the launchers' shapes are taken
				    (--estimate-at); all 0: none */
	int measured;            /* simulator: the timed case made small (--measured), whose figures make the
				    estimate of the time; the reference solution's are sent too; -1: none */
	int check_round;         /* the timed round whose outputs are judged as case timed + 1 */
	double threshold_ratio;  /* runner: re-measure when this close to it */
	double threshold_us;     /* runner: absolute threshold, 0 if none */
	double rtol, atol;       /* judge: the exercise's tolerance for float outputs; NAN: the type's default */
	const char *student;     /* runner (simulator) and capture: the submission's shared object */
	const char *launcher;    /* capture: the launcher's name in it */
	const char *device_code; /* runner (GPU): the submission's device code, a fatbinary */
	const char *plans;       /* runner (GPU): the plans of its launcher's calls, as the grader checked them */
	bool under_tool;         /* runner: under compute-sanitizer or Nsight Compute */
	bool timing_ways;        /* runner, GPU: time the kernel the right and the wrong ways (the "Measure it"
				    demo): its first launch, in case 0, and the rest in the timed case */
	bool wait_go;            /* runner: started early, it opens the GPU, then waits for a byte on stdin
				    before loading the submission (which is still being compiled) */
	bool figures_only;       /* runner under a GPU tool: its last case, the timed size, is run for the
				    tool's figures alone: inputs drawn on the device, nothing sent back */
	bool profile_warm_up;    /* runner under Nsight Compute for the point, started early: one launch of
				    its own profiled before it says HELLO (harness/gpu_open.h) */
	bool wait_timing;        /* runner: waits for one more byte on stdin (or its end) before timing, while
				    the point's profiler warms up beside it */
	double launch_cpu_limit; /* runner on the simulator: CPU seconds one launch may take; 0: its own */
};

/* Parse the grader's arguments; on a mistake print why and return -1. */
int cases_parse(int argc, char **argv, struct run_config *cfg);

/* The secret seed (0 when none was given): its page is readable only while this reads it. */
uint64_t cases_seed(const struct run_config *cfg);

/* Declare the buffers of case `index` through the check. */
void cases_describe(const struct run_config *cfg, int index, struct check_case *c);

/* Fill input buffer `buffer` of case `index` (declared as *spec) from the seed. */
void cases_fill(const struct run_config *cfg, int index, int buffer, const struct buffer_spec *spec, void *dst);

/*
 * The inputs of timed round `round`: every round draws fresh ones, so no
 * result can be remembered from one round to the next. The round the
 * grader judges draws the inputs of case timed + 1.
 */
uint32_t cases_round_stream(const struct run_config *cfg, int round);
/*
 * The elements of output `buffer` (n of them) of case `index` that are
 * judged, as chunks in increasing order: 0 when the whole output is (a
 * correctness case, or a small one), else PROTO_SAMPLE_CHUNKS chunks.
 */
int cases_sample(const struct run_config *cfg, int index, int buffer, uint64_t n, struct proto_chunk *chunks);

/* Write one framed message; returns -1 if the grader has gone away. */
int proto_send(int fd, uint32_t type, uint32_t case_index, uint32_t aux,
	       const void *payload, uint64_t length);

/* proto_send of a printf-formatted text payload. */
int proto_sendf(int fd, uint32_t type, uint32_t case_index, uint32_t aux,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#ifdef __cplusplus
}
#endif
#endif
