/*
 * result: what one grading found, as plain data — the cases, the timing,
 * the diagnoses, the memory figures, the point, the simulator's estimate,
 * the heat map's lines, the verdict. The engine fills it (grade.h), the
 * report and the batch read it. It depends on nothing of the grader: any
 * module of any of grader/'s folders may hold a result without the
 * engine's headers coming along, so it lies beside the folders.
 */
#ifndef CUDALINGS_RESULT_H
#define CUDALINGS_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/outcome.h"
#include "harness/protocol.h"

struct exercise;

/* Which side grades: nvcc and a GPU, or the CPU simulator. */
enum backend { BACKEND_GPU, BACKEND_SIM };

/* -------------------------------------------- the simulator's estimate (grader/engine/estimate.c) */
/* One side's estimate (the student's or the reference's), in µs, and its parts. */
struct estimate_side {
	double us;
	double dram_us, l2_us, waves_us; /* summed over launches; waves_us = latency + l1 + shared */
	double latency_us, l1_us, shared_us;
	int launches;
	/* the model's inputs at the timed size, summed over launches (bench/estimate_fit.py refits from them) */
	double waves, rounds, lines, wavefronts, sms;
};

struct estimate {
	bool made;
	const char *gpu;        /* "H100" */
	double ratio;           /* the student's estimate over the reference's */
	double threshold_ratio; /* the exercise's */
	struct estimate_side student, reference;
	char text[160];         /* "estimated 3.4× the reference on an H100 (from the simulator's counts; a GPU decides)" */
	const char *bound;      /* what limits the student's kernel: "DRAM", "L2", "latency", "L1", "shared memory" */
};

/* -------------------------------------------- the heat map's lines (grader/sass/lines.c) */
enum line_kind {
	LINE_GLOBAL_LOAD,
	LINE_GLOBAL_STORE,
	LINE_SHARED_LOAD,
	LINE_SHARED_STORE,
	LINE_LOCAL_LOAD,  /* registers spilled to local memory (Nsight Compute only) */
	LINE_LOCAL_STORE,
	LINE_KINDS
};

/* The requests of one kind at one line: sectors (global, local) or wavefronts (shared). */
struct line_access {
	uint64_t requests, units, ideal;
};

struct line_figures {
	char *file;     /* as the student named it */
	int line;
	char *source;   /* the line's text as graded, or NULL */
	struct line_access kind[LINE_KINDS];
	double samples; /* Nsight Compute: warp samples at the line's instructions (where the time went) */
	bool hot;       /* its requests take more than their bytes need, and that is a real part of the traffic */
};

struct line_map {
	const char *source; /* "simulator" or "nsight compute"; NULL while nothing was measured */
	char *note;         /* what was measured, e.g. "case 256x256, the first 32 blocks of each launch" */
	char *why;          /* why nothing was measured, or NULL */
	struct line_figures *lines;
	int n, cap;
	char *text;         /* the student's file as graded, for the annotated listing; or NULL */
	char *file;         /* its name as the student gave it */
	double total_samples;
	uint64_t total_sectors, total_wavefronts; /* over every line: what shares are of */
};

/* -------------------------------------------- one grading (grader/engine/grade.c) */
struct case_result {
	char name[64];
	bool timed, ran, passed;
	bool measured;   /* the simulator's small copy of the timed case, whose figures the budgets judge */
	size_t mismatches;
	bool wrong;      /* a correctness failure nothing mismatched shows: a race, a changed input */
	char *message;
};

#define DIAGNOSTIC_MAX_FIGURES 4

/* What went wrong, in the lessons' terms (grader/engine/diagnose.c makes them). */
struct diagnostic {
	char *kind;    /* out_of_bounds, race, uninitialized, barrier_divergence, bank_conflicts, uncoalesced, … */
	char *message;
	char *file;    /* where, or NULL */
	int line;
	char *other_file; /* a race's other access, or NULL */
	int other_line;
	int nfigures;
	struct {
		const char *name; /* a budget's name, e.g. "sectors_per_request" */
		double value;
	} figures[DIAGNOSTIC_MAX_FIGURES];
};

/* How the student's kernels used memory: from the simulator's checks or from Nsight Compute. */
struct memory_figures {
	bool measured;
	const char *source;            /* "simulator" or "nsight compute" */
	char over[80];                 /* the simulator's: what its counts cover ("the case 128x1056"), "" for every case */
	double load_sectors_per_request, store_sectors_per_request; /* < 0: no such request */
	double sectors_per_request;    /* loads and stores together, weighed by the bytes each asked for; < 0: not known */
	double bank_conflicts_per_request;                          /* < 0: no shared memory request */
	double global_reads_per_thread, global_writes_per_thread;   /* < 0: not known */
	double global_reads_per_output;  /* floats read from global memory per output element; < 0: not known */
	double dram_gbps;                                           /* < 0: not measured */
	char global_where[256], shared_where[256];                  /* the costliest line, "" if unknown */
};

/* Whether the exercise's point, its budgets, was judged, and by what (JSON "point"). */
enum point_state {
	POINT_NONE,        /* no budget decides here: none declared, or a GPU where the time alone decides */
	POINT_CHECKED,     /* by the simulator, or on a GPU by Nsight Compute (budgets_on_gpu) */
	POINT_NOT_CHECKED, /* budgets_on_gpu, and Nsight Compute could not measure them: why_not says why */
};

struct point_check {
	enum point_state state;
	const char *by;  /* "simulator" or "nsight compute" when checked */
	char *why_not;   /* when not checked */
	int kernels;     /* on a GPU: the kernels Nsight Compute measured in the profiled launch */
};

struct timing_result {
	bool measured;
	double median_us, reference_us, copy_us, threshold_us, wall_us;
	double ratio, ratio_lo, ratio_hi, threshold_ratio;
	double gbps, copy_gbps, peak_gbps, gflops;
	bool absolute; /* the threshold came from the per-GPU table */
	int rounds, measurements;
	double gold_us;     /* the gold solution in the same rounds; 0 when the exercise has none */
	double physical_us; /* the physical reference: the copy, or cuBLAS SGEMM for matmul */
	const char *physical; /* "device-to-device copy" or "cuBLAS SGEMM" */
	double limit_pct;   /* the physical reference's time as a percentage of the student's */
	bool clocks_known;  /* NVML answered: the SM clock and slowdowns below mean something */
	unsigned sm_mhz_first, sm_mhz_last, sm_mhz_low, sm_mhz_high;
	char *noise;        /* what made the time uncertain (a slowdown, a clock that moved), or NULL */
};

struct grade_result {
	const struct exercise *e;
	char *file;
	enum backend backend;
	char *device;
	char arch[16];      /* what the GPU code was built for, e.g. sm_90 */
	enum verdict verdict; /* VERDICT_FAIL (zero) until the verdict is a pass */
	enum stage stage;   /* where it stopped; STAGE_NONE for a pass */
	char *message;
	char *note;
	char *compile_output;
	char *program_output; /* what the student's program printed */
	struct case_result *cases; /* ncases of them: the exercise's, then the timed case and its judged round */
	int ncases;
	enum performance performance;
	struct timing_result timing;
	struct diagnostic diagnostics[16];
	int ndiagnostics;
	struct memory_figures figures;
	struct point_check point;
	struct estimate estimate; /* sim: the time the counts suggest on a GPU, beside the reference's; never a verdict */
	const char *hint;
	enum tier tier;     /* a pass's standing: pass, near gold (within NEAR_GOLD_RATIO× of gold), gold (as fast or
			       faster, within the measurement's noise: verdict_tier); TIER_NONE for a failure */
	struct line_map lines; /* per source line: the simulator's always, Nsight Compute's when asked (--lines) */
	struct proto_way ways[PROTO_MAX_WAYS]; /* a demo with timing_ways, on a GPU: its kernel timed each way */
	int nways;
};

/* A pass within this factor of the gold solution's time is near gold. */
#define NEAR_GOLD_RATIO 1.1

#endif
