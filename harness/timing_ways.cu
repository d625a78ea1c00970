/*
 * The ways to time a kernel (harness/timing_ways.h): the right one (CUDA
 * events around the kernel alone, after a warm-up, the L2 flushed before
 * each launch, the median of many) and the classic mistakes, each measured
 * on the same kernel in the same process so that the wrong figure stands
 * beside the right one.
 */
#include "harness/timing_ways.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

extern "C" {
#include "harness/stats.h"
}

enum {
	SAMPLES = 51,       /* launches per way that takes a median */
	WARMUP_US = 100000, /* the warm-up, as the grader's timing does */
	IDLE_US = 1000000,  /* how long the GPU sits idle before the way without a warm-up */
	COLD_SAMPLES = 5,   /* launches timed right after that idle */
};

static struct proto_way first;
static bool have_first;
static unsigned flush_value;

static unsigned
mhz(const struct timing_ways_kernel *k)
{
	return k->sm_mhz ? k->sm_mhz() : 0;
}

/* A memset of twice the L2: whatever the last launch left in the cache is gone. */
static cudaError_t
flush(const struct timing_ways_kernel *k)
{
	return cudaMemsetAsync(k->flush, (int)(++flush_value & 0xff), k->flush_bytes);
}

/* One launch between two events, the cache flushed first or not; *us gets the kernel's time. */
static cudaError_t
time_with_events(const struct timing_ways_kernel *k, bool flushed, double *us)
{
	cudaEvent_t start, stop;
	cudaError_t e = cudaEventCreate(&start);
	if (e == cudaSuccess && (e = cudaEventCreate(&stop)) != cudaSuccess)
		cudaEventDestroy(start);
	if (e != cudaSuccess)
		return e;
	if (flushed)
		e = flush(k);
	if (e == cudaSuccess) {
		/* the flush runs first on the GPU; the start event completes when it is done */
		cudaEventRecord(start);
		k->launch(k->ctx);
		cudaEventRecord(stop);
		e = cudaGetLastError();
	}
	if (e == cudaSuccess)
		e = cudaEventSynchronize(stop);
	float ms = 0;
	if (e == cudaSuccess)
		e = cudaEventElapsedTime(&ms, start, stop);
	cudaEventDestroy(start);
	cudaEventDestroy(stop);
	*us = ms * 1000.0;
	return e;
}

/*
 * One launch timed by the host's clock, from a cold cache and an idle GPU:
 * around the launch call alone, or around the launch and the wait for it.
 */
static cudaError_t
time_with_host_clock(const struct timing_ways_kernel *k, bool wait, double *us)
{
	cudaError_t e = flush(k);
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	if (e != cudaSuccess)
		return e;
	double t0 = stats_now_us();
	k->launch(k->ctx);
	if (wait)
		e = cudaDeviceSynchronize();
	double t1 = stats_now_us();
	if (e == cudaSuccess)
		e = cudaGetLastError();
	if (e == cudaSuccess && !wait)
		e = cudaDeviceSynchronize();
	*us = t1 - t0;
	return e;
}

enum method { EVENTS_FLUSHED, EVENTS_WARM, HOST_LAUNCH, HOST_LAUNCH_AND_WAIT };

static cudaError_t
sample(const struct timing_ways_kernel *k, enum method m, double *us)
{
	switch (m) {
	case EVENTS_FLUSHED:
		return time_with_events(k, true, us);
	case EVENTS_WARM:
		return time_with_events(k, false, us);
	case HOST_LAUNCH:
		return time_with_host_clock(k, false, us);
	default:
		return time_with_host_clock(k, true, us);
	}
}

/* `count` launches timed by `m`: the way's figure is the first one's (cold) or the median. */
static cudaError_t
measure_way(const struct timing_ways_kernel *k, enum proto_way_kind kind, enum method m, int count, bool median,
	    struct proto_way *w)
{
	double us[SAMPLES];
	memset(w, 0, sizeof(*w));
	w->kind = (uint32_t)kind;
	w->sm_mhz = mhz(k);
	for (int i = 0; i < count; i++) {
		cudaError_t e = sample(k, m, &us[i]);
		if (e != cudaSuccess)
			return e;
	}
	w->samples = (uint32_t)count;
	w->low_us = w->high_us = us[0];
	for (int i = 1; i < count; i++) {
		w->low_us = us[i] < w->low_us ? us[i] : w->low_us;
		w->high_us = us[i] > w->high_us ? us[i] : w->high_us;
	}
	w->us = median ? stats_median(us, (size_t)count) : us[0];
	return cudaSuccess;
}

cudaError_t
timing_ways_first(const struct timing_ways_kernel *k)
{
	double us = 0;
	memset(&first, 0, sizeof(first));
	first.kind = WAY_FIRST_LAUNCH;
	first.sm_mhz = mhz(k);
	cudaError_t e = time_with_events(k, true, &us);
	first.us = first.low_us = first.high_us = us;
	first.samples = 1;
	have_first = e == cudaSuccess;
	return e;
}

cudaError_t
timing_ways_measure(const struct timing_ways_kernel *k, struct proto_way *ways, int *n)
{
	struct proto_way right, launch_only, host_clock, cold, warm;
	cudaError_t e = cudaDeviceSynchronize();
	*n = 0;
	if (e != cudaSuccess)
		return e;
	/* the GPU idle a while, then timed at once: what a measurement without a warm-up sees */
	for (double t0 = stats_now_us(); stats_now_us() - t0 < IDLE_US;) {
		struct timespec pause = { 0, 10 * 1000 * 1000 };
		nanosleep(&pause, NULL);
	}
	if ((e = measure_way(k, WAY_NO_WARMUP, EVENTS_FLUSHED, COLD_SAMPLES, false, &cold)) != cudaSuccess)
		return e;
	/* the warm-up, then the right way and the mistakes a warm GPU still makes */
	for (double t0 = stats_now_us(); stats_now_us() - t0 < WARMUP_US;) {
		double us;
		if ((e = time_with_events(k, true, &us)) != cudaSuccess)
			return e;
	}
	if ((e = measure_way(k, WAY_RIGHT, EVENTS_FLUSHED, SAMPLES, true, &right)) != cudaSuccess ||
	    (e = measure_way(k, WAY_WARM_CACHE, EVENTS_WARM, SAMPLES, true, &warm)) != cudaSuccess ||
	    (e = measure_way(k, WAY_HOST_CLOCK, HOST_LAUNCH_AND_WAIT, SAMPLES, true, &host_clock)) != cudaSuccess ||
	    (e = measure_way(k, WAY_LAUNCH_ONLY, HOST_LAUNCH, SAMPLES, true, &launch_only)) != cudaSuccess)
		return e;
	ways[(*n)++] = right;
	if (have_first)
		ways[(*n)++] = first;
	ways[(*n)++] = launch_only;
	ways[(*n)++] = host_clock;
	ways[(*n)++] = cold;
	ways[(*n)++] = warm;
	return cudaSuccess;
}
