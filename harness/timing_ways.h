/*
 * Timing one kernel the right way and the classic wrong ways, for the
 * "Measure it" demo (slides/measure_it.md): the runner calls this, on a GPU
 * only, when the grader passes --timing-ways. CUDA runs in the runner's one
 * process: nothing here forks.
 */
#ifndef CUDALINGS_TIMING_WAYS_H
#define CUDALINGS_TIMING_WAYS_H

#include <cuda_runtime.h>
#include "harness/protocol.h"

struct timing_ways_kernel {
	void (*launch)(void *ctx); /* queue one launch of the kernel, nothing more */
	void *ctx;
	void *flush;               /* at least twice the L2: a memset of it empties the cache */
	size_t flush_bytes;
	unsigned (*sm_mhz)(void);  /* the SM clock now, 0 when not known (NULL: never known) */
};

/*
 * The kernel's first launch in this process, timed with events as the right
 * way times it, set-up included: call it instead of that launch, then wait
 * for it as usual. Kept until timing_ways_measure reports it.
 */
cudaError_t timing_ways_first(const struct timing_ways_kernel *k);

/*
 * Every way, after timing_ways_first: fills ways[0 .. *n) (at most
 * PROTO_MAX_WAYS), the right way first. Takes a second and a half, most of
 * it the idle GPU that the way without a warm-up needs.
 */
cudaError_t timing_ways_measure(const struct timing_ways_kernel *k, struct proto_way *ways, int *n);

#endif
