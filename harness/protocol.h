/*
 * The framing between the grader (parent) and its children: the runner, the
 * judge, and on a GPU the capture process. On a GPU the runner is the
 * measuring process: it holds no host code of the student's, replays the
 * plans the capture process recorded, and alone sends outputs and timings;
 * on the simulator it holds the student's code. The judge holds only
 * instructor code. Every message is a fixed header and `length` bytes of
 * payload. The parent trusts nothing the runner says beyond "these are my
 * outputs": it compares them with the judge's reference itself.
 */
#ifndef CUDALINGS_PROTOCOL_H
#define CUDALINGS_PROTOCOL_H

#include <stdint.h>
#include "harness/dtype.h"

#define PROTO_MAGIC 0x43554c47u /* "CULG" */
/* The kernel the point's runner has Nsight Compute profile before its go (harness/gpu_open.cu), by name
 * in ncu's log (grader/engine/point.c skips it there); a submission may define no cudalings_ name. */
#define PROTO_WARM_UP_KERNEL cudalings_profiler_warm_up
#define PROTO_NAME_OF(name) PROTO_NAME_OF_(name)
#define PROTO_NAME_OF_(name) #name
#define PROTO_MAX_DIMS 4
#define PROTO_MAX_BUFFERS 6
#define PROTO_NAME_MAX 128

enum proto_type {
	MSG_HELLO = 1,     /* runner: struct proto_device */
	MSG_CASE_BEGIN,    /* runner: case index */
	MSG_OUTPUT,        /* runner: case, aux = buffer index, payload = raw elements of the buffer's dtype */
	MSG_INPUT_CHANGED, /* runner: case, aux = buffer index, payload = first changed index (u64) */
	MSG_ERROR,         /* runner: case, aux = enum proto_stage, payload = text */
	MSG_TIMING,        /* runner: struct proto_timing */
	MSG_STAGE,         /* runner: aux = enum proto_stage, payload = text (progress only) */
	MSG_DONE,          /* runner or judge: all cases handled */
	MSG_EXPECTED,      /* judge: case, aux = buffer index, payload = struct proto_expect[] */
	MSG_CASE_INFO,     /* judge: case, payload = struct proto_case_info */
	MSG_BUFFERS,       /* runner: case, payload = uint64_t device address of each buffer */
	MSG_FINDING,       /* runner (simulator): case, payload = struct proto_finding */
	MSG_COUNTS,        /* runner (simulator): case, payload = struct proto_counts */
	MSG_ROUND_DIFFERS, /* runner: the timed case, aux = buffer index, payload = struct proto_round_differs */
	MSG_REFUSED,       /* runner: the submission made a system call it may not; payload = the call's name */
	MSG_REPOISONED,    /* runner: case, aux = buffer: the output of a second launch over the second poison */
	MSG_LINES,         /* runner (simulator): case, payload = struct proto_line[], at most PROTO_MAX_LINES */
	MSG_WAYS,          /* runner: the timed case, payload = struct proto_way[], at most PROTO_MAX_WAYS */
	MSG_SAMPLE,        /* judge: case, aux = buffer: judged on these elements only (struct proto_chunk[]);
			      its MSG_EXPECTED, and the runner's MSG_OUTPUT and MSG_REPOISONED, carry them alone */
	MSG_PLAN,          /* capture (GPU): case, payload = the launcher's plan for it (harness/plan.h); the
			      only message of the capture process besides MSG_ERROR, MSG_REFUSED and MSG_DONE */
	MSG_LAUNCH,        /* runner (simulator): case, aux = 0 a launch of the student's, 1 of the reference
			      solution's (the measured case only); payload = struct proto_launch */
};

/*
 * The timed case and its judged round are large (a GiB of input, 64 Mi
 * outputs): an output of more than PROTO_SAMPLE_CHUNKS chunks is judged on
 * that many chunks of PROTO_SAMPLE_CHUNK elements, one drawn from the secret
 * seed in each stretch of the output, the first and the last included
 * (harness/cases.c). Every element of every timed round is still compared on
 * the device with the reference solution's.
 */
#define PROTO_SAMPLE_CHUNK 4096
#define PROTO_SAMPLE_CHUNKS 256
struct proto_chunk {
	uint64_t start, count;
};

/* The poisons outputs are filled with before a launch are harness/dtype.h's. */

enum proto_stage {
	PROTO_STAGE_RUN = 1,
	PROTO_STAGE_TIMING = 2,
	PROTO_STAGE_DEVICE = 3, /* the GPU itself could not be opened: not the student's fault */
	PROTO_STAGE_RACE = 4,   /* the simulator saw the result depend on the order of threads */
};

struct proto_header {
	uint32_t magic;
	uint32_t type;
	uint32_t case_index;
	uint32_t aux;
	uint64_t length;
};

struct proto_device {
	char name[256];
	int32_t cc_major, cc_minor;
	int32_t sm_count;
	int32_t l2_bytes;
	int32_t mem_clock_khz;
	int32_t bus_width_bits;
	int32_t is_simulator;
	int32_t reserved;
};

/* One element of a reference output: the value in double precision and the
 * largest error a correct kernel may make on it (0 for an integer: exact). */
struct proto_expect {
	double value;
	double bound;
};

struct proto_buffer {
	char name[32];
	int32_t is_output;
	uint32_t dtype; /* enum dtype: how its elements are laid out and compared */
	uint64_t rows, cols;
};

/* What the judge tells the grader about a case before its reference outputs. */
struct proto_case_info {
	double bytes;  /* the fewest bytes the kernel must move */
	double flops;
	int32_t nbuffers;
	int32_t reserved;
	struct proto_buffer buffers[PROTO_MAX_BUFFERS];
};

/* What the simulator's checks saw one thread do (sim/check.c). The grader
 * names the buffer from MSG_BUFFERS and MSG_CASE_INFO. */
enum proto_finding_kind {
	FINDING_OUT_OF_BOUNDS = 1, /* outside every buffer, or past the dynamic shared memory asked for */
	FINDING_RACE,              /* two threads, one shared word, one writes, no barrier between */
	FINDING_UNINITIALIZED,     /* a read of shared memory no thread of the block wrote */
	FINDING_BARRIER,           /* threads of a block at different barriers (the GPU's synccheck) */
};

struct proto_finding {
	uint32_t kind;
	uint32_t write, other_write; /* the access wrote; (race) the other one wrote */
	uint32_t size;               /* bytes */
	uint64_t addr;               /* device address; shared: the byte in the shared array */
	uint64_t extent;             /* shared: the array's bytes */
	uint64_t count;              /* accesses of this kind */
	int32_t shared;              /* 1: dynamic shared memory, 2: a __shared__ variable */
	int32_t thread[3], block[3], other_thread[3];
	char where[256], other_where[256]; /* "file:line", "" when unknown */
};

/* Memory traffic of the student's kernels (sums over the launches of a case). */
struct proto_counts {
	uint64_t threads, global_loads, global_stores;
	uint64_t load_requests, load_sectors, store_requests, store_sectors;
	uint64_t shared_requests, shared_wavefronts;
	/* the line that cost most beyond the ideal, and that cost ("" and 0: none known) */
	uint64_t global_excess, shared_excess;
	char global_where[256], shared_where[256];
	/* the fewest sectors and wavefronts the same requests could have taken (0: not known, as from
	 * Nsight Compute); the bytes the loads read; the case's output elements (the grader fills these) */
	uint64_t load_ideal, store_ideal, shared_ideal;
	uint64_t load_bytes, outputs;
};

/* One launch as the simulator's checks saw it, for the estimate of its time (grader/engine/estimate.c):
 * its shape, every thread's loads and stores, the barrier intervals in which a thread loaded (the
 * loads it may have in flight are its loads per such interval), and the requests of its first
 * detail_blocks blocks. */
#define PROTO_MAX_LAUNCHES 8
struct proto_launch {
	uint32_t grid[3], block[3];
	uint64_t smem; /* bytes per block, dynamic and static */
	uint64_t threads, loads, stores, load_bytes, store_bytes, load_intervals, detail_blocks;
	uint64_t load_requests, load_sectors, load_ideal, store_requests, store_sectors, store_ideal;
	uint64_t shared_requests, shared_wavefronts;
	uint64_t load_lines, store_lines, load_block_sectors; /* 128-byte lines per request, summed; sectors per block */
	uint64_t shared_broadcasts; /* shared loads whose lanes all read one word */
	uint64_t detail_load_bytes, detail_store_bytes; /* what the detail blocks' loads and stores moved */
	uint64_t case_bytes; /* every buffer of the case, inputs and outputs */
	uint64_t sms;        /* the SMs the device reported to the launcher */
};

/* The requests of the student's kernels at one source line, of one kind (the heat map of --lines). */
#define PROTO_MAX_LINES 128
struct proto_line {
	char where[256];         /* "file:line" */
	uint32_t shared, write;  /* shared memory or global; a store or a load */
	uint64_t requests;       /* warps at one instruction */
	uint64_t units, ideal;   /* sectors (global) or wavefronts (shared), and the fewest the bytes need */
};

/* A timed round whose outputs are not the reference solution's for the same inputs. */
struct proto_round_differs {
	uint32_t round, buffer;
	uint64_t first;          /* the first element that differs */
	uint64_t count;          /* how many differ */
	double student, reference; /* the first one's values (exact for every dtype) */
};

struct proto_timing {
	double student_us;    /* median over rounds */
	double reference_us;  /* median over rounds, same rounds */
	double copy_us;       /* device-to-device copy of the same bytes */
	double ratio;         /* median of per-round student/reference ratios */
	double ratio_lo;      /* 95% confidence interval of that median */
	double ratio_hi;
	double wall_us;       /* host time of a student launch beyond the GPU's span: work off the clock */
	double gold_us;       /* median of the exercise's gold solution, same rounds; 0 when it has none */
	double physical_us;   /* median of the physical reference when it is not the copy (cuBLAS SGEMM); 0 else */
	int32_t rounds;
	int32_t measurements; /* 1, or up to 3 when close to the threshold or slowed */
	/* the GPU's state through NVML, sampled around each measurement; clocks_known 0 without NVML */
	int32_t clocks_known;
	uint32_t sm_mhz_first, sm_mhz_last; /* SM clock before the first measurement, after the last */
	uint32_t sm_mhz_low, sm_mhz_high;   /* the lowest and highest seen */
	uint64_t slowdowns;   /* PROTO_SLOWDOWN_* reasons seen during any measurement */
};

/*
 * One way of timing a kernel, the right one or a classic mistake: what the
 * "Measure it" demo shows (harness/timing_ways.cu, slides/measure_it.md).
 */
enum proto_way_kind {
	WAY_RIGHT = 1,    /* events around the kernel alone, after a warm-up, L2 flushed, the median */
	WAY_FIRST_LAUNCH, /* the same events around the kernel's first launch in the process */
	WAY_LAUNCH_ONLY,  /* a host clock around the launch call, no waiting for the kernel */
	WAY_HOST_CLOCK,   /* a host clock around the launch and cudaDeviceSynchronize() */
	WAY_NO_WARMUP,    /* events, L2 flushed, the first launch after the GPU sat idle */
	WAY_WARM_CACHE,   /* events after a warm-up but no flush: the inputs are still in L2 */
	WAY_KINDS
};

#define PROTO_MAX_WAYS 8
struct proto_way {
	uint32_t kind;        /* enum proto_way_kind */
	uint32_t samples;     /* launches timed this way */
	double us;            /* the figure this way gives: the median of its samples, or its one */
	double low_us, high_us;
	uint32_t sm_mhz;      /* the SM clock just before (NVML); 0 when not known */
	uint32_t reserved;
};

/* NVML's clock event reasons that slow a GPU down: power cap, slowdown, thermal, power brake. */
#define PROTO_SLOWDOWN_POWER_CAP 0x4ull
#define PROTO_SLOWDOWN_HW 0x8ull
#define PROTO_SLOWDOWN_SW_THERMAL 0x20ull
#define PROTO_SLOWDOWN_HW_THERMAL 0x40ull
#define PROTO_SLOWDOWN_POWER_BRAKE 0x80ull
#define PROTO_SLOWDOWNS (PROTO_SLOWDOWN_POWER_CAP | PROTO_SLOWDOWN_HW | PROTO_SLOWDOWN_SW_THERMAL | \
			 PROTO_SLOWDOWN_HW_THERMAL | PROTO_SLOWDOWN_POWER_BRAKE)

#endif
