/*
 * The runner's timed case on a GPU (harness/runner.h): a plain case at the
 * timed size first, then the warm-up, then up to three measurements of
 * rounds (runner_rounds.cu) where the ratio lands near the threshold or the
 * GPU slowed itself down, the GPU's clocks watched through NVML, and, for the
 * "Measure it" demo, every way of timing the kernel (harness/timing_ways.cu).
 */
#include <cuda_runtime.h>

#include <dlfcn.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "harness/runner.h"
extern "C" {
#include "harness/stats.h"
}
#ifndef __CUDASIM__
#include "harness/timing_ways.h"
#endif

struct clocks {
	bool known;
	unsigned sm_mhz;
	unsigned long long slowdowns;
};

#ifndef __CUDASIM__
/*
 * The GPU's clocks through NVML (the driver's library, loaded at run time, opened before the
 * filter): a measurement taken while the GPU slowed itself down (power cap, heat) is noise, and
 * the verdict says so. Without NVML, nothing is known and nothing changes.
 */
static struct {
	void *device; /* nvmlDevice_t */
	int (*clock)(void *device, int type, unsigned *mhz);
	int (*reasons)(void *device, unsigned long long *mask);
} nvml;

static void
clocks_sample(struct clocks *c)
{
	memset(c, 0, sizeof(*c));
	enum { NVML_CLOCK_SM = 1 };
	c->known = nvml.device && nvml.clock(nvml.device, NVML_CLOCK_SM, &c->sm_mhz) == 0 &&
		   nvml.reasons(nvml.device, &c->slowdowns) == 0;
	c->slowdowns &= PROTO_SLOWDOWNS;
}

void
clocks_open(void)
{
	void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return;
	int (*init)(void) = (int (*)(void))dlsym(lib, "nvmlInit_v2");
	int (*by_bus)(const char *, void **) = (int (*)(const char *, void **))dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
	nvml.clock = (int (*)(void *, int, unsigned *))dlsym(lib, "nvmlDeviceGetClockInfo");
	void *reasons = dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
	nvml.reasons = (int (*)(void *, unsigned long long *))(reasons ? reasons
							  : dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons"));
	char bus[64];
	int device = 0;
	cudaGetDevice(&device);
	if (!init || !by_bus || !nvml.clock || !nvml.reasons || init() != 0 ||
	    cudaDeviceGetPCIBusId(bus, sizeof(bus), device) != cudaSuccess || by_bus(bus, &nvml.device) != 0) {
		nvml.device = NULL;
		return;
	}
	/* once before the filter: whatever NVML opens on a first query, it opens now */
	struct clocks c;
	clocks_sample(&c);
}
#else
/* The simulator has no clocks to watch (and times nothing). */
static void
clocks_sample(struct clocks *c)
{
	memset(c, 0, sizeof(*c));
}
#endif

/* ------------------------------------------------- the "Measure it" demo's ways */

#ifndef __CUDASIM__
struct ways_launch {
	int index;
	const struct check_case *c;
	void *const *dev;
};

static void
ways_launch(void *ctx)
{
	const struct ways_launch *w = (const struct ways_launch *)ctx;
	/* an error stays the device's: the demo's timing and the case's own launch report it */
	call_launcher(w->index, student_launcher, w->c, w->dev);
}

static unsigned
ways_sm_mhz(void)
{
	struct clocks c;
	clocks_sample(&c);
	return c.known ? c.sm_mhz : 0;
}
#endif

/*
 * With --timing-ways, the kernel's first launch in the process (case 0, at the
 * timed size) is timed as the demo shows it; returns whether it launched.
 */
bool
first_launch_timed(int index, const void *fn, struct case_buffers *b, void *const *dev, cudaError_t *e)
{
#ifndef __CUDASIM__
	static bool done;
	if (!cfg.timing_ways || done || index != 0 || fn != student_launcher)
		return false;
	done = true;
	struct ways_launch w = { index, &b->c, dev };
	struct timing_ways_kernel k = { ways_launch, &w, NULL, 0, ways_sm_mhz };
	/* the flush is set up beforehand: only the launch, with what it loads on its first call, is timed */
	if (alloc_flush(&k.flush, &k.flush_bytes) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
		cudaGetLastError();
		return false;
	}
	/* its error, if the launch fails, is the case's: launch_and_wait reports it as its own */
	*e = timing_ways_first(&k);
	cudaFree(k.flush);
	return true;
#else
	(void)index, (void)fn, (void)b, (void)dev, (void)e;
	return false;
#endif
}

/* With --timing-ways: every way of timing the kernel, sent before the grader's own timing. */
static int
send_timing_ways(struct timing_state *t)
{
#ifndef __CUDASIM__
	struct ways_launch w = { t->index, &t->b->c, t->b->dev };
	struct timing_ways_kernel k = { ways_launch, &w, t->flush, t->flush_bytes, ways_sm_mhz };
	struct proto_way ways[PROTO_MAX_WAYS];
	int n = 0;
	proto_sendf(channel, MSG_STAGE, (uint32_t)t->index, PROTO_STAGE_TIMING, "timing the kernel the right way and the wrong ways");
	if (harness_call(t->index, "timing the kernel the demo's ways", timing_ways_measure(&k, ways, &n)))
		return -1;
	proto_send(channel, MSG_WAYS, (uint32_t)t->index, 0, ways, sizeof(ways[0]) * (size_t)n);
#else
	(void)t;
#endif
	return 0;
}

void
run_timed_case(int index)
{
	struct case_buffers b;
	struct timing_state t;
	memset(&t, 0, sizeof(t));
	t.index = index;
	t.b = &b;
	/* first a plain case at the timed size: the grader judges its outputs as case `index` */
	proto_send(channel, MSG_CASE_BEGIN, (uint32_t)index, 0, NULL, 0);
	if (setup_case(index, &b) ||
	    harness_call(index, "poisoning the outputs", poison_outputs(&b, b.dev)) ||
	    launch_and_wait(index, PROTO_STAGE_RUN, student_launcher, &b, b.dev) || send_outputs(index, &b, b.dev))
		exit(1);
	verify_inputs(index, &b);
	if (alloc_timing(&t) || (cfg.timing_ways && send_timing_ways(&t)))
		exit(1);
	proto_sendf(channel, MSG_STAGE, (uint32_t)index, PROTO_STAGE_TIMING, "warming up");
	/* every kernel once: module loading and first-touch stay out of the numbers */
	if (time_once(&t, VARIANT_REFERENCE, 0, NULL) < 0 || time_once(&t, VARIANT_STUDENT, 0, NULL) < 0 ||
	    time_once(&t, VARIANT_COPY, 0, NULL) < 0 ||
	    (cudalings_gold_launcher && time_once(&t, VARIANT_GOLD, 0, NULL) < 0) ||
	    (has_physical() && time_once(&t, VARIANT_PHYSICAL, 0, NULL) < 0))
		exit(1);
	for (double w0 = stats_now_us(); stats_now_us() - w0 < 100e3;)
		if (launch_and_wait(index, PROTO_STAGE_TIMING, student_launcher, &b, b.dev))
			exit(1);
	/* the point's Nsight Compute may still be warming up on this GPU (harness/gpu_open.h): nothing of
	   another process's runs while the rounds are timed. The grader sends a byte, or closes our input,
	   once it is quiet; either lets the timing go on. */
	char quiet;
	if (cfg.wait_timing)
		(void)!read(0, &quiet, 1);

	proto_sendf(channel, MSG_STAGE, (uint32_t)index, PROTO_STAGE_TIMING, "timing");
	struct measurement m[3];
	double ratios[3];
	int count = 0;
	struct proto_timing out;
	memset(&out, 0, sizeof(out));
	struct clocks before, after;
	clocks_sample(&before);
	out.clocks_known = before.known;
	out.sm_mhz_first = out.sm_mhz_low = out.sm_mhz_high = before.sm_mhz;
	while (count < 3) {
		if (measure(&t, 10e6, &m[count])) {
			proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
			exit(1);
		}
		clocks_sample(&after);
		ratios[count] = m[count].ratio;
		double threshold = cfg.threshold_us > 0
			? cfg.threshold_us / m[count].student_us * m[count].ratio
			: cfg.threshold_ratio;
		count++;
		bool slowed = after.known && (after.slowdowns || before.slowdowns);
		out.slowdowns |= after.slowdowns | before.slowdowns;
		out.clocks_known &= after.known;
		out.sm_mhz_last = after.sm_mhz;
		out.sm_mhz_low = after.sm_mhz < out.sm_mhz_low ? after.sm_mhz : out.sm_mhz_low;
		out.sm_mhz_high = after.sm_mhz > out.sm_mhz_high ? after.sm_mhz : out.sm_mhz_high;
		before = after;
		/* far from the threshold one measurement decides; close to it, or over it while the GPU
		   slowed itself down, take up to three */
		bool close = fabs(ratios[count - 1] / threshold - 1) <= 0.03;
		bool noisy_fail = slowed && ratios[count - 1] > threshold;
		if (!close && !noisy_fail)
			break;
	}
	int pick = 0;
	if (count > 1) {
		double sorted[3];
		memcpy(sorted, ratios, sizeof(sorted));
		double med = stats_median(sorted, (size_t)count);
		for (int i = 0; i < count; i++)
			if (ratios[i] == med)
				pick = i;
	}
	out.student_us = m[pick].student_us;
	out.reference_us = m[pick].reference_us;
	out.copy_us = m[pick].copy_us;
	out.ratio = m[pick].ratio;
	out.ratio_lo = m[pick].ratio_lo;
	out.ratio_hi = m[pick].ratio_hi;
	out.wall_us = m[pick].wall_us;
	out.gold_us = m[pick].gold_us;
	out.physical_us = m[pick].physical_us;
	out.rounds = m[pick].rounds;
	out.measurements = count;
	proto_send(channel, MSG_TIMING, (uint32_t)index, 0, &out, sizeof(out));
}
