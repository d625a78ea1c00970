/*
 * What the runner's files share (harness/runner.cu and its runner_*.cu): the
 * process's state, set once in main, a case's buffers, a timed round's
 * state, and the functions one file calls in another. Not a public header:
 * only the runner's own sources include it, on both backends (nvcc for the
 * GPU, the simulator's rewriter then g++ for the CPU).
 *
 *   runner.cu         the process: options, the GPU opened, the sandbox, the
 *                     submission loaded, the cases in order; CUDA errors in
 *                     plain words
 *   runner_case.cu    one case: its buffers with guards, inputs drawn, the
 *                     launch, the outputs fetched and sent, the inputs checked
 *   runner_rounds.cu  the rounds: one round timed from a cold L2, its outputs
 *                     compared on the device, rounds until the ratio is known
 *   runner_timed.cu   the timed case (GPU): warm-up, up to three measurements,
 *                     the GPU's clocks, the "Measure it" demo's ways
 *   runner_sim.cu     the simulator only: its checks' findings and figures
 *                     sent, a case run again, the estimate's launches
 */
#ifndef CUDALINGS_RUNNER_H
#define CUDALINGS_RUNNER_H

#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "harness/cases.h"
}

/* Defined by the exercise's generated glue: the reference solution's launcher, and the name of the student's. */
extern "C" const void *const cudalings_reference_launcher;
extern "C" const char cudalings_launcher_name[];
/* The gold solution, timed beside the others when the exercise has one (NULL otherwise). */
extern "C" const void *const cudalings_gold_launcher;
/* The physical reference when it is not a copy (harness/physical/NAME.cpp, GPU only). */
extern "C" __attribute__((weak)) int cudalings_physical_launch(const struct check_case *c, void *const *b);

/* ------------------------------------------------ the process (runner.cu) */

extern struct run_config cfg;
extern int channel;
extern volatile int current_case; /* for a report from a signal handler */
/* found in the student's shared object once the sandbox is up (simulator); on a GPU only a mark that says
   "the student's": its plans stand in for it */
extern const void *student_launcher;

/* Say that `what` failed with e during case `index`; a sticky error ends the process. */
void report_cuda_error(int index, uint32_t stage, const char *what, cudaError_t e);
/* 0 when e is cudaSuccess, else -1 after reporting it as the harness's own call `what`. */
int harness_call(int index, const char *what, cudaError_t e);

/* ------------------------------------------------ one case (runner_case.cu) */

/* The device and host sides of one case. */
struct case_buffers {
	struct check_case c;
	unsigned char *host[PROTO_MAX_BUFFERS]; /* raw elements of each buffer's type */
	void *dev[PROTO_MAX_BUFFERS];
	size_t bytes[PROTO_MAX_BUFFERS];
};

/* Every buffer of the case, inputs and outputs: the bytes a kernel must move at least. */
uint64_t case_bytes(const struct case_buffers *b);
/* Allocate and fill case `index`'s buffers: 0, or -1 after saying why (free_case either way). */
int setup_case(int index, struct case_buffers *b);
void free_case(struct case_buffers *b);
/* Poison the outputs so that an element no thread writes holds its type's poison (a float's is NaN). */
cudaError_t poison_outputs(struct case_buffers *b, void *const *dev);
/* Run launcher `fn` for case `index` on `dev` (the student's: its plan replayed on a GPU); the launch's error. */
cudaError_t call_launcher(int index, const void *fn, const struct check_case *c, void *const *dev);
/* Launch, wait, report: 0, or -1 after saying what failed. */
int launch_and_wait(int index, uint32_t stage, const void *fn, struct case_buffers *b, void *const *dev);
/* Output k as the grader judges it (whole, or a large timed output's sample) into host: bytes, or -1. */
long long fetch_output(int index, const struct case_buffers *b, int k, const void *dev, unsigned char *host);
int send_outputs(int index, struct case_buffers *b, void *const *dev);
/* Say which input a launch wrote to, if any. */
void verify_inputs(int index, struct case_buffers *b);
/* Queue the drawing of n elements of an input as cases_fill draws them on the host, on the device. */
void draw_input(void *dst, size_t n, uint64_t stream, const struct buffer_spec *spec, unsigned blocks);
void run_correctness_case(int index);

/* ------------------------------------------------ the rounds (runner_rounds.cu) */

enum { ROUNDS_MIN = 20, ROUNDS_MAX = 2000 };

/* How far the student's outputs of a round are from the reference solution's on the same inputs. */
struct round_check {
	double magnitude;          /* the sum of |reference| */
	unsigned long long wrong;  /* elements beyond the tolerance, NaN included */
	unsigned long long first;  /* the first of them */
};

struct timing_state {
	int index;
	struct case_buffers *b;
	void *ref_dev[PROTO_MAX_BUFFERS]; /* the inputs shared, the reference's own outputs */
	void *gold_dev[PROTO_MAX_BUFFERS];     /* likewise for the gold solution */
	void *physical_dev[PROTO_MAX_BUFFERS]; /* and for the physical reference */
	void *flush;
	size_t flush_bytes;
	void *copy_src, *copy_dst;
	size_t copy_bytes;
	cudaEvent_t span, start, stop;
	int round;                 /* rounds so far: each draws inputs of its own */
	struct round_check *check; /* device: how the last round's outputs compare */
};

enum variant { VARIANT_REFERENCE, VARIANT_STUDENT, VARIANT_COPY, VARIANT_GOLD, VARIANT_PHYSICAL };

struct measurement {
	double student_us, reference_us, copy_us, gold_us, physical_us, ratio, ratio_lo, ratio_hi, wall_us;
	int rounds;
};

bool has_physical(void);
int draw_round_inputs(struct timing_state *t);
/* One launch of `v` from a cold L2 and poisoned outputs: µs, or -1 after an error was reported. */
double time_once(struct timing_state *t, enum variant v, unsigned flush_value, double *off_clock);
/* The reference's outputs for this round's inputs, untimed. */
int reference_again(struct timing_state *t);
/* The round's outputs against the reference's, on the device; `judged`: the grader's round sent whole. */
int check_round(struct timing_state *t, bool judged);
/* Rounds until the median ratio is known to ±1% (at least ROUNDS_MIN, at most cap_us). */
int measure(struct timing_state *t, double cap_us, struct measurement *m);
/* A buffer whose memset empties the L2: twice its size, and no less than 256 MiB. */
cudaError_t alloc_flush(void **flush, size_t *bytes);
int alloc_timing(struct timing_state *t);

/* ------------------------------------------------ the timed case (runner_timed.cu) */

/* With --timing-ways, the kernel's first launch in the process timed as the demo shows it: whether it launched. */
bool first_launch_timed(int index, const void *fn, struct case_buffers *b, void *const *dev, cudaError_t *e);
#ifndef __CUDASIM__
/* The GPU's clocks and slowdowns through NVML, opened before the filter (nothing known without it). */
void clocks_open(void);
#endif
void run_timed_case(int index);

/* ------------------------------------------------ the simulator (runner_sim.cu) */

#ifdef __CUDASIM__
/* What the simulator's checks saw the student's launches do. */
void send_checks(int index, uint64_t case_bytes);
/* The CPU time one simulated launch may take. */
double sim_launch_limit(void);
/* Whether case `index` runs once more on fresh inputs, and that run. */
bool again_case(int index);
void run_again(int index, struct case_buffers *b);
/* The reference's launches on the measured case, and both launchers' shapes at the timed size: the estimate's. */
void send_estimate_launches(void);
/* Host code that touches device memory is told so in those words. */
void catch_host_faults(void);
/* Before the submission's host code runs (its launcher, here in the runner's process): the dead stack it
   will reuse, where the harness worked with the seed, wiped. */
void before_student_code(void);
#else
/* A GPU's own checks are its tools': the simulator's have nothing to send. */
static inline void
send_checks(int index, uint64_t case_bytes)
{
	(void)index, (void)case_bytes;
}
#endif

#endif
