/*
 * The runner: it draws the inputs from the seed the grader passes, runs the
 * student's launches, and ships the raw outputs and the timings to the
 * grader over the channel. It decides nothing: the grader compares the
 * outputs with the judge's reference.
 *
 * Built twice from this one file. By nvcc for the GPU, where it is the
 * measuring process: it never loads the student's host code, only its
 * device code, and replays the plans the capture process recorded of the
 * launcher's calls (harness/capture.cpp, harness/replay.cpp), so nothing
 * the submission's host code does can reach this process's memory or its
 * channel. Through the CPU simulator's rewriter for the sim backend, where
 * it loads the student's shared object and calls the launcher itself.
 */
#include <cuda_runtime.h>
#ifndef __CUDASIM__
#include <cuda_profiler_api.h>
#endif

#include <dlfcn.h>
#include <math.h>
#include <signal.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

extern "C" {
#include "cases.h"
#include "rng.h"
#include "sandbox.h"
#include "stats.h"
}
#ifndef __CUDASIM__
#include "gpu_open.h"
#include "replay.h"
#include "timing_ways.h"
#endif

/* Defined by the exercise's generated glue: the reference solution's launcher, and the name of the student's. */
extern "C" const void *const cudalings_reference_launcher;
extern "C" const char cudalings_launcher_name[];
/* The gold solution, timed beside the others when the exercise has one (NULL otherwise). */
extern "C" const void *const cudalings_gold_launcher;
/* The physical reference when it is not a copy (harness/physical/NAME.cpp, GPU only). */
extern "C" __attribute__((weak)) int cudalings_physical_launch(const struct check_case *c, void *const *b);

static struct run_config cfg;
static int channel;
static volatile int current_case; /* for a report from a signal handler */
/* found in the student's shared object once the sandbox is up (simulator); on a GPU only a mark that says
   "the student's": its plans stand in for it */
static const void *student_launcher;

static const char *
plain_words(cudaError_t e)
{
	switch (e) {
	case cudaErrorIllegalAddress:
		return "an illegal memory address: a thread read or wrote outside an array";
	case cudaErrorMisalignedAddress:
		return "a misaligned address: a thread read a value at an address that is not a multiple of its size";
	case cudaErrorInvalidConfiguration:
		return "an invalid launch configuration: a grid or block with a zero size, more than 1024 threads "
		       "per block, or too much shared memory";
	case cudaErrorLaunchOutOfResources:
		return "too many resources asked for: fewer threads per block or fewer registers per thread";
	case cudaErrorLaunchFailure:
		return "the kernel failed while it ran";
	case cudaErrorAssert:
		return "an assert() in a kernel failed";
	case cudaErrorIllegalInstruction:
		return "the kernel executed an illegal instruction (a trap, or a bad function pointer)";
	case cudaErrorLaunchTimeout:
		return "the kernel ran too long and was stopped";
	case cudaErrorMemoryAllocation:
		return "out of GPU memory";
	case cudaErrorInvalidValue:
		return "an invalid argument to a CUDA call";
	case cudaErrorNoKernelImageForDevice:
	case cudaErrorInvalidDeviceFunction:
		return "the kernel was not built for this GPU";
	case cudaErrorNoDevice:
		return "no CUDA GPU is visible to this process";
	case cudaErrorInsufficientDriver:
		return "the NVIDIA driver is older than the CUDA toolkit that built the program";
	default:
		return "a CUDA error";
	}
}

static const char *
error_detail(void)
{
#ifdef __CUDASIM__
	return cudasimLastErrorDetail();
#else
	return "";
#endif
}

#ifdef __CUDASIM__
static void
copy_where(char *to, const char *from)
{
	snprintf(to, 256, "%s", from);
}

static void
copy_dim(int32_t *to, uint3 from)
{
	to[0] = (int32_t)from.x;
	to[1] = (int32_t)from.y;
	to[2] = (int32_t)from.z;
}
#endif

#ifdef __CUDASIM__
/* The same requests per source line: the heat map of `cudalings grade --lines`. */
static void
send_lines(int index)
{
	static struct cudasimLine lines[PROTO_MAX_LINES];
	static struct proto_line out[PROTO_MAX_LINES];
	int n = cudasimTakeLines(lines, PROTO_MAX_LINES);
	for (int i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		copy_where(out[i].where, lines[i].where);
		out[i].shared = (uint32_t)lines[i].shared;
		out[i].write = (uint32_t)lines[i].write;
		out[i].requests = lines[i].requests;
		out[i].units = lines[i].units;
		out[i].ideal = lines[i].ideal;
	}
	if (n > 0)
		proto_send(channel, MSG_LINES, (uint32_t)index, 0, out, sizeof(*out) * (size_t)n);
}
#endif

#ifdef __CUDASIM__
enum { ESTIMATE_SMS = 132 }; /* the SMs of the GPU the estimate is for (grader/engine/estimate.c's H100) */

/* The SMs the device reports: a launcher that fills the GPU sizes its grid by them. */
static int
device_sms(void)
{
	int sms = 0;
	return cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) == cudaSuccess ? sms : 0;
}

/* Each launch of the measured case, for the estimate of its time: aux 0 the student's, 1 the reference's. */
static void
send_launches(int index, uint32_t aux, const struct cudasimChecks *c, uint64_t case_bytes, int sms)
{
	for (int i = 0; index == cfg.measured && i < c->nlaunches && i < CUDASIM_LAUNCHES; i++) {
		const struct cudasimLaunchCounts *l = &c->launches[i];
		const struct cudasimStats *st = &l->stats;
		struct proto_launch p = { { l->grid[0], l->grid[1], l->grid[2] }, { l->block[0], l->block[1], l->block[2] },
					  l->smem, l->threads, l->global_loads, l->global_stores,
					  l->global_load_bytes, l->global_store_bytes, l->load_intervals, l->detail_blocks,
					  st->global_load_requests, st->global_load_sectors, st->global_load_ideal,
					  st->global_store_requests, st->global_store_sectors, st->global_store_ideal,
					  st->shared_requests, st->shared_wavefronts,
					  l->load_lines, l->store_lines, l->load_block_sectors, l->shared_broadcasts,
					  l->detail_load_bytes, l->detail_store_bytes, case_bytes, (uint64_t)sms };
		proto_send(channel, MSG_LAUNCH, (uint32_t)index, aux, &p, sizeof(p));
	}
}
#endif

/* What the simulator's checks saw the student's launches do (nothing on a GPU). */
static void
send_checks(int index, uint64_t case_bytes)
{
#ifdef __CUDASIM__
	struct cudasimChecks c;
	if (cudasimTakeChecks(&c))
		return;
	send_launches(index, 0, &c, case_bytes, device_sms());
	for (int i = 0; i < c.nfindings; i++) {
		const struct cudasimFinding *f = &c.findings[i];
		struct proto_finding p;
		memset(&p, 0, sizeof(p));
		p.kind = (uint32_t)f->kind; /* the simulator's numbering is the protocol's */
		p.write = (uint32_t)f->write;
		p.other_write = (uint32_t)f->other_write;
		p.size = f->size;
		p.addr = f->shared ? (uint64_t)f->offset : (uint64_t)(uintptr_t)f->addr;
		p.count = f->count;
		p.extent = (uint64_t)f->extent;
		p.shared = f->shared;
		copy_dim(p.thread, f->thread);
		copy_dim(p.block, f->block);
		copy_dim(p.other_thread, f->other_thread);
		copy_where(p.where, f->where);
		copy_where(p.other_where, f->other_where);
		proto_send(channel, MSG_FINDING, (uint32_t)index, 0, &p, sizeof(p));
	}
	struct proto_counts n = { c.threads, c.global_loads, c.global_stores,
				  c.stats.global_load_requests, c.stats.global_load_sectors,
				  c.stats.global_store_requests, c.stats.global_store_sectors,
				  c.stats.shared_requests, c.stats.shared_wavefronts,
				  c.global_excess, c.shared_excess, "", "",
				  c.stats.global_load_ideal, c.stats.global_store_ideal, c.stats.shared_ideal,
				  c.global_load_bytes, 0 };
	copy_where(n.global_where, c.global_where);
	copy_where(n.shared_where, c.shared_where);
	proto_send(channel, MSG_COUNTS, (uint32_t)index, 0, &n, sizeof(n));
	send_lines(index);
#else
	(void)index, (void)case_bytes;
#endif
}

/*
 * Report a CUDA failure in `what` during case `index` and decide whether the
 * process can go on: a sticky error poisons the context, so stop there.
 */
static void
report_cuda_error(int index, uint32_t stage, const char *what, cudaError_t e)
{
	const char *detail = error_detail();
	/* a race gives a wrong result, however the simulator noticed it */
	if (strstr(detail, "depends on the order in which")) {
		/* the launch "failed" only because the simulator compared two orders: say the race first */
		proto_sendf(channel, MSG_ERROR, (uint32_t)index, PROTO_STAGE_RACE, "%s", detail);
	} else {
		proto_sendf(channel, MSG_ERROR, (uint32_t)index, stage, "%s: %s (%s)%s%s", what,
			    plain_words(e), cudaGetErrorName(e), *detail ? "\n" : "", detail);
	}
	cudaGetLastError();
	if (cudaDeviceSynchronize() != cudaSuccess) {
		proto_send(channel, MSG_DONE, (uint32_t)index, 0, NULL, 0);
		exit(1);
	}
}

static int
harness_call(int index, const char *what, cudaError_t e)
{
	if (e == cudaSuccess)
		return 0;
	report_cuda_error(index, PROTO_STAGE_RUN, what, e);
	return -1;
}

static bool
is_simulator(void)
{
#ifdef __CUDASIM__
	return true;
#else
	return false;
#endif
}

static void
send_device(void)
{
	struct proto_device d;
	cudaDeviceProp p;
	int device = 0;
	memset(&d, 0, sizeof(d));
	if (cudaGetDevice(&device) != cudaSuccess ||
	    cudaGetDeviceProperties(&p, device) != cudaSuccess) {
		cudaError_t e = cudaGetLastError();
		proto_sendf(channel, MSG_ERROR, 0, PROTO_STAGE_DEVICE, "no GPU could be opened: %s (%s)",
			    plain_words(e), cudaGetErrorName(e));
		proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
		exit(1);
	}
	snprintf(d.name, sizeof(d.name), "%s", p.name);
	d.cc_major = p.major;
	d.cc_minor = p.minor;
	d.sm_count = p.multiProcessorCount;
	d.l2_bytes = p.l2CacheSize;
	cudaDeviceGetAttribute(&d.mem_clock_khz, cudaDevAttrMemoryClockRate, device);
	cudaDeviceGetAttribute(&d.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, device);
#ifdef __CUDASIM__
	d.is_simulator = 1;
#endif
	proto_send(channel, MSG_HELLO, 0, 0, &d, sizeof(d));
}

/* The device and host sides of one case. */
struct case_buffers {
	struct check_case c;
	unsigned char *host[PROTO_MAX_BUFFERS]; /* raw elements of each buffer's type */
	void *dev[PROTO_MAX_BUFFERS];
	size_t bytes[PROTO_MAX_BUFFERS];
};

/*
 * The last case of a run for a GPU tool's figures (--figures-only: Nsight
 * Compute's for the point, --profile and --lines): the timed size as a plain
 * case, profiled, whose outputs nobody judges (the grader drops that run's
 * channel). Its launch and what comes before it are the graded run's; only
 * the harness's work around it goes: no inputs drawn on the host and copied
 * over, no outputs or inputs copied back, scanned and sent (a 4096 x 4096
 * transpose's 64 MiB each way), each after the go, on the grading's clock.
 */
static bool
figures_only_case(int index)
{
	return cfg.figures_only && cfg.under_tool && index == cfg.ncases - 1;
}

/*
 * The timed case's inputs (a GiB for col_sums) are drawn on the device, as
 * every round's are, bit for bit what cases_fill draws on the host for the
 * judge: no host generation, no copy over PCIe, and their check afterwards
 * on the device too. So are a tool's figures-only case's.
 */
static bool
inputs_on_device(int index)
{
#ifdef __CUDASIM__
	(void)index;
	return false;
#else
	return index == cfg.timed || figures_only_case(index);
#endif
}

static cudaError_t draw_case_input(int index, const struct case_buffers *b, int k, void *dst);

/*
 * Past the end of each buffer of a case, a guard: a GPU does not fault on
 * an access a little past an allocation. An input's guard is 0xff bytes,
 * so a read past its end gets a NaN (-1 in an integer), which spoils what
 * it is added to rather than passing for a zero; an output's is 0xa5
 * bytes, checked after the student's launch, which no NaN read from an
 * input's guard and written past an output's end can pass for. The
 * simulator checks every access itself, and a guard would only hide one
 * there.
 */
static unsigned char
guard_fill(const struct buffer_spec *spec)
{
	return spec->role == BUFFER_IN ? 0xff : 0xa5;
}

static size_t
guard_bytes(size_t bytes)
{
#ifdef __CUDASIM__
	(void)bytes;
	return 0;
#else
	/* a grid rounded up to whole blocks overshoots by less than a block's rows of the widest matrix */
	size_t guard = ((size_t)64 << 10) + bytes / 8;
	return guard < ((size_t)16 << 20) ? guard : (size_t)16 << 20;
#endif
}
static int guard_broken(int index, const struct case_buffers *b);
static int inputs_changed_on_device(int index, const struct case_buffers *b, int k, uint64_t *first);

/* Every buffer of the case, inputs and outputs: the bytes a kernel must move at least. */
static uint64_t
case_bytes(const struct case_buffers *b)
{
	uint64_t n = 0;
	for (int k = 0; k < b->c.nbuffers; k++)
		n += b->bytes[k];
	return n;
}

static int
setup_case(int index, struct case_buffers *b)
{
	memset(b, 0, sizeof(*b));
	cases_describe(&cfg, index, &b->c);
	for (int k = 0; k < b->c.nbuffers; k++) {
		b->bytes[k] = check_bytes(&b->c.spec[k]);
		bool input = b->c.spec[k].role == BUFFER_IN, on_device = input && inputs_on_device(index);
		if (!on_device && !(b->host[k] = (unsigned char *)malloc(b->bytes[k] ? b->bytes[k] : 1))) {
			proto_sendf(channel, MSG_ERROR, (uint32_t)index, PROTO_STAGE_RUN,
				    "the harness could not allocate %zu bytes of host memory", b->bytes[k]);
			return -1;
		}
		if (input && !on_device)
			cases_fill(&cfg, index, k, &b->c.spec[k], b->host[k]);
		size_t guard = guard_bytes(b->bytes[k]);
		if (harness_call(index, "cudaMalloc in the harness", cudaMalloc(&b->dev[k], b->bytes[k] + guard)) ||
		    (guard && harness_call(index, "filling a buffer's guard",
					   cudaMemset((unsigned char *)b->dev[k] + b->bytes[k], guard_fill(&b->c.spec[k]), guard))))
			return -1;
		if (on_device && harness_call(index, "drawing the inputs", draw_case_input(index, b, k, b->dev[k])))
			return -1;
		if (input && !on_device &&
		    harness_call(index, "copying the inputs to the GPU",
				 cudaMemcpy(b->dev[k], b->host[k], b->bytes[k], cudaMemcpyHostToDevice)))
			return -1;
	}
	/* so that an address a check or a sanitizer reports can be named after its buffer */
	uint64_t addrs[PROTO_MAX_BUFFERS] = { 0 };
	for (int k = 0; k < b->c.nbuffers; k++) {
		addrs[k] = (uint64_t)(uintptr_t)b->dev[k];
#ifdef __CUDASIM__
		/* and so that the simulator's own messages count its elements, not floats */
		cudasimDescribeAllocation(b->dev[k], (unsigned)dtype_size(b->c.spec[k].type), dtype_name(b->c.spec[k].type));
#endif
	}
	proto_send(channel, MSG_BUFFERS, (uint32_t)index, 0, addrs, sizeof(addrs));
	return 0;
}

static void
free_case(struct case_buffers *b)
{
	for (int k = 0; k < b->c.nbuffers; k++) {
		free(b->host[k]);
		if (b->dev[k])
			cudaFree(b->dev[k]);
	}
}

/* Poison the outputs so that an element no thread writes holds its type's poison (a float's is NaN). */
static cudaError_t
poison_outputs(struct case_buffers *b, void *const *dev)
{
	for (int k = 0; k < b->c.nbuffers; k++)
		if (b->c.spec[k].role == BUFFER_OUT) {
			cudaError_t e = cudaMemsetAsync(dev[k], dtype_poison_byte(b->c.spec[k].type), b->bytes[k]);
			if (e != cudaSuccess)
				return e;
		}
	return cudaSuccess;
}

static bool first_launch_timed(int index, const void *fn, struct case_buffers *b, void *const *dev, cudaError_t *e);

/*
/*
 * Under Nsight Compute (--under-tool), the student's launch at the timed size and
 * nothing else is profiled: the grader starts ncu with --profile-from-start off
 * and puts that size last, after the correctness cases (ARGV_TOOL_TIMED_SIZE:
 * on a GPU their plans are the graded run's, in its order), and the harness's
 * own kernels (inputs drawn, outputs compared) stay outside.
 */
static void
profile_range(int index, const void *fn, bool on)
{
#ifndef __CUDASIM__
	if (!cfg.under_tool || fn != student_launcher || index != cfg.ncases - 1)
		return;
	if (on)
		cudaProfilerStart();
	else
		cudaProfilerStop();
#else
	(void)index, (void)fn, (void)on;
#endif
}

/*
 * Run launcher `fn` for case `index` on `dev` and return the launch's error.
 * The instructor's launchers are called. The student's is called on the
 * simulator; on a GPU its plan for the case is replayed.
 */
static cudaError_t
call_launcher(int index, const void *fn, const struct check_case *c, void *const *dev)
{
#ifndef __CUDASIM__
	if (fn == student_launcher)
		return replay_case(index, dev);
#else
	(void)index;
#endif
	check_definition.launch(fn, c, dev);
	return cudaGetLastError();
}

static int
launch_and_wait(int index, uint32_t stage, const void *fn, struct case_buffers *b, void *const *dev)
{
	cudaError_t e;
#ifndef __CUDASIM__
	if (fn == student_launcher && !replay_has(index)) {
		proto_sendf(channel, MSG_ERROR, (uint32_t)index, stage,
			    "the launcher's calls for this case were not recorded: its process stopped at an earlier case");
		return -1;
	}
#endif
	if (!first_launch_timed(index, fn, b, dev, &e)) {
		profile_range(index, fn, true);
		e = call_launcher(index, fn, &b->c, dev);
	}
	/* before the error: a fault may end the program, and the checks explain it */
	send_checks(index, case_bytes(b));
	if (e != cudaSuccess) {
		/* at a launch, an invalid value is the launch's shape: say which limits a launch has */
		report_cuda_error(index, stage,
				  e == cudaErrorInvalidValue || e == cudaErrorInvalidConfiguration
					  ? "launching the kernel (a launch configuration takes at most 2147483647 blocks "
					    "in x and 65535 in y and z, at most 1024 threads a block and none of them zero)"
					  : "launching the kernel",
				  e);
		return -1;
	}
	e = cudaDeviceSynchronize();
	profile_range(index, fn, false);
	if (e != cudaSuccess) {
		report_cuda_error(index, stage, "running the kernel", e);
		return -1;
	}
	return dev == b->dev ? guard_broken(index, b) : 0;
}

/* The first byte of p unlike other's (or, with other NULL, unlike value), by atomicMin into *first. */
__global__ void
first_unlike(const unsigned char *p, const unsigned char *other, unsigned char value, size_t bytes,
	     unsigned long long *first)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < bytes; i += (size_t)gridDim.x * blockDim.x)
		if (p[i] != (other ? other[i] : value))
			atomicMin(first, (unsigned long long)i);
}

/*
 * The first of `bytes` bytes at p unlike other's (or, with other NULL,
 * unlike value), found on the device: 0 with *found that byte (~0 when all
 * are alike), -1 after saying why it could not be looked for.
 */
static int
first_unlike_on_device(int index, const char *what, const void *p, const void *other, unsigned char value,
		       size_t bytes, unsigned long long *found)
{
	unsigned long long *at = NULL, none = ~0ull;
	int status = -1;
	*found = none;
	if (!harness_call(index, what, cudaMalloc(&at, sizeof(*at))) &&
	    !harness_call(index, what, cudaMemcpy(at, &none, sizeof(none), cudaMemcpyHostToDevice))) {
		first_unlike<<<1024, 256>>>((const unsigned char *)p, (const unsigned char *)other, value, bytes, at);
		if (!harness_call(index, what, cudaGetLastError()) &&
		    !harness_call(index, what, cudaMemcpy(found, at, sizeof(*found), cudaMemcpyDeviceToHost)))
			status = 0;
	}
	cudaFree(at);
	return status;
}

/* -1 after saying so when a launch wrote into the guard past a buffer's end, else 0. */
static int
guard_broken(int index, const struct case_buffers *b)
{
	if (!guard_bytes(1))
		return 0;
	for (int k = 0; k < b->c.nbuffers; k++) {
		unsigned long long found;
		const unsigned char *guard = (const unsigned char *)b->dev[k] + b->bytes[k];
		if (first_unlike_on_device(index, "checking the buffers' guards", guard, NULL, guard_fill(&b->c.spec[k]),
					   guard_bytes(b->bytes[k]), &found))
			return -1;
		if (found == ~0ull)
			continue;
		const struct buffer_spec *spec = &b->c.spec[k];
		size_t size = dtype_size(spec->type), n = check_elements(spec);
		unsigned long long past = found / size + 1;
		char how_far[32] = "one";
		if (past > 1)
			snprintf(how_far, sizeof(how_far), "%llu", past);
		proto_sendf(channel, MSG_ERROR, (uint32_t)index, PROTO_STAGE_RUN,
			    "a thread wrote past the end of %s: %s has %zu elements, and %s[%llu] (%s past the "
			    "end) was written; is a bounds test missing, or does the grid cover more than the "
			    "data?", spec->name, spec->name, n, spec->name, n - 1 + past, how_far);
		return -1;
	}
	return 0;
}

/*
 * Whether an output may hold its poison, left alone or updated: a NaN in a
 * float output (a GPU's arithmetic on the poison gives another NaN). Any
 * value of an integer output may be one, so those always get the second
 * launch: the grader alone knows which elements are wrong.
 */
static bool
may_hold_poison(enum dtype type, const unsigned char *v, size_t n)
{
	if (!dtype_is_float(type))
		return true;
	for (size_t i = 0; i < n; i++) {
		double x = dtype_load(v, type, i);
		if (x != x)
			return true;
	}
	return false;
}

/*
 * Output k of case `index` as the grader judges it, copied from `dev` into
 * `host` (room for the whole buffer): whole, or for a large timed output
 * the chunks of its sample (cases_sample), in order. Returns the bytes
 * copied, or -1 after saying why.
 */
static long long
fetch_output(int index, const struct case_buffers *b, int k, const void *dev, unsigned char *host)
{
	struct proto_chunk chunks[PROTO_SAMPLE_CHUNKS];
	size_t size = dtype_size(b->c.spec[k].type);
	int nchunks = cases_sample(&cfg, index, k, check_elements(&b->c.spec[k]), chunks);
	if (!nchunks)
		return harness_call(index, "copying the outputs back",
				    cudaMemcpy(host, dev, b->bytes[k], cudaMemcpyDeviceToHost)) ? -1 : (long long)b->bytes[k];
	long long at = 0;
	for (int j = 0; j < nchunks; j++) {
		size_t bytes = chunks[j].count * size;
		if (harness_call(index, "copying the outputs back",
				 cudaMemcpy(host + at, (const unsigned char *)dev + chunks[j].start * size, bytes,
					    cudaMemcpyDeviceToHost)))
			return -1;
		at += (long long)bytes;
	}
	return at;
}

/*
 * Some outputs still hold the poison: launch again over the second poison
 * and send what that launch left, so the grader can tell "never written"
 * from "updated before it was set". Errors of this launch are not the
 * verdict's: the first launch's were reported already.
 */
static void
send_second_poison(int index, struct case_buffers *b, void *const *dev)
{
	for (int k = 0; k < b->c.nbuffers; k++)
		if (b->c.spec[k].role == BUFFER_OUT && cudaMemsetAsync(dev[k], DTYPE_SECOND_POISON_BYTE, b->bytes[k]))
			return;
	cudaError_t e = call_launcher(index, student_launcher, &b->c, dev);
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
#ifdef __CUDASIM__
	/* what the simulator's checks saw of this launch was seen in the first already */
	static struct cudasimChecks seen;
	cudasimTakeChecks(&seen);
#endif
	if (e != cudaSuccess) {
		cudaGetLastError();
		return;
	}
	for (int k = 0; k < b->c.nbuffers; k++) {
		if (b->c.spec[k].role != BUFFER_OUT)
			continue;
		std::vector<unsigned char> second(b->bytes[k] ? b->bytes[k] : 1);
		long long bytes = fetch_output(index, b, k, dev[k], second.data());
		if (bytes >= 0)
			proto_send(channel, MSG_REPOISONED, (uint32_t)index, (uint32_t)k, second.data(), (size_t)bytes);
	}
}

static int
send_outputs(int index, struct case_buffers *b, void *const *dev)
{
	bool poisoned = false;
	long long sent[PROTO_MAX_BUFFERS] = { 0 };
	for (int k = 0; k < b->c.nbuffers; k++) {
		if (b->c.spec[k].role != BUFFER_OUT)
			continue;
		if ((sent[k] = fetch_output(index, b, k, dev[k], b->host[k])) < 0)
			return -1;
		poisoned |= may_hold_poison(b->c.spec[k].type, b->host[k], (size_t)sent[k] / dtype_size(b->c.spec[k].type));
	}
	/* before the outputs: the grader reads the second launch's when it compares the first's */
	if (poisoned)
		send_second_poison(index, b, dev);
	for (int k = 0; k < b->c.nbuffers; k++)
		if (b->c.spec[k].role == BUFFER_OUT &&
		    proto_send(channel, MSG_OUTPUT, (uint32_t)index, (uint32_t)k, b->host[k], (size_t)sent[k]))
			exit(1);
	return 0;
}

/* A kernel that writes its inputs may still produce the right output once: say so. */
static void
verify_inputs(int index, struct case_buffers *b)
{
	for (int k = 0; k < b->c.nbuffers; k++) {
		if (b->c.spec[k].role != BUFFER_IN)
			continue;
		uint64_t first = 0;
		if (inputs_on_device(index)) {
			int changed = inputs_changed_on_device(index, b, k, &first);
			if (changed > 0)
				proto_send(channel, MSG_INPUT_CHANGED, (uint32_t)index, (uint32_t)k, &first, sizeof(first));
			continue;
		}
		size_t n = check_elements(&b->c.spec[k]), size = dtype_size(b->c.spec[k].type);
		std::vector<unsigned char> now(b->bytes[k] ? b->bytes[k] : 1);
		if (harness_call(index, "copying the inputs back",
				 cudaMemcpy(now.data(), b->dev[k], b->bytes[k], cudaMemcpyDeviceToHost)))
			return;
		if (memcmp(now.data(), b->host[k], b->bytes[k]) == 0)
			continue;
		while (first < n && memcmp(&now[first * size], &b->host[k][first * size], size) == 0)
			first++;
		proto_send(channel, MSG_INPUT_CHANGED, (uint32_t)index, (uint32_t)k, &first, sizeof(first));
	}
}

#ifdef __CUDASIM__
/* Seconds of CPU time one simulated launch may take: less than the grader's limit per case
 * (grader/engine/grade.c), so that an endless kernel is named by the simulator, at its line. */
#define SIM_LAUNCH_CPU_LIMIT_S 20.0

/* That, or the lower limit the grader passed (--launch-cpu-limit). */
static double
sim_launch_limit(void)
{
	return cfg.launch_cpu_limit > 0 && cfg.launch_cpu_limit < SIM_LAUNCH_CPU_LIMIT_S ? cfg.launch_cpu_limit
											   : SIM_LAUNCH_CPU_LIMIT_S;
}

/* A case once more on the simulator (after the rounds' helpers, below). */
static void run_again(int index, struct case_buffers *b);

/* Whether the simulator runs case `index` again: every case of the cheaper half (by the product of their sizes)
 * and one of the others, picked by the secret seed, so that no size a submission might remember is safe. */
static bool
again_case(int index)
{
	int order[CASES_MAX], n = cfg.ncases;
	double work[CASES_MAX];
	for (int i = 0; i < n; i++) {
		work[i] = 1;
		for (int d = 0; d < PROTO_MAX_DIMS; d++)
			work[i] *= cfg.dims[i][d] > 0 ? cfg.dims[i][d] : 1;
		int j = i;
		for (; j > 0 && work[order[j - 1]] > work[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	int cheap = (n + 1) / 2, dear = n - cheap;
	for (int k = 0; k < cheap; k++)
		if (order[k] == index)
			return true;
	return dear > 0 && order[cheap + (int)(rng_mix(cfg.seed ^ 0x616761696eull) % (uint64_t)dear)] == index;
}
#endif

#ifdef __CUDASIM__
/*
 * The reference solution on the measured case, its own outputs, with the
 * checks on: its launches, beside the student's, make the estimate's
 * ratio (the reference is compiled with the instrumentation on the
 * simulator). Its results are not looked at.
 */
static void
send_reference_launches(int index)
{
	struct case_buffers case_b, *b = &case_b;
	if (setup_case(index, b)) {
		free_case(b);
		return;
	}
	void *dev[PROTO_MAX_BUFFERS];
	bool ready = true;
	for (int k = 0; k < b->c.nbuffers; k++) {
		dev[k] = b->dev[k];
		if (ready && b->c.spec[k].role == BUFFER_OUT)
			ready = cudaMalloc(&dev[k], b->bytes[k]) == cudaSuccess;
		else if (b->c.spec[k].role == BUFFER_OUT)
			dev[k] = NULL;
	}
	static struct cudasimChecks seen;
	static struct cudasimLine lines[PROTO_MAX_LINES];
	if (ready && poison_outputs(b, dev) == cudaSuccess) {
		check_definition.launch(cudalings_reference_launcher, &b->c, dev);
		if (cudaDeviceSynchronize() == cudaSuccess && cudasimTakeChecks(&seen) == 0)
			send_launches(index, 1, &seen, case_bytes(b), device_sms());
	}
	cudaGetLastError();
	cudasimTakeChecks(&seen);
	cudasimTakeLines(lines, PROTO_MAX_LINES);
	for (int k = 0; k < b->c.nbuffers; k++)
		if (dev[k] && dev[k] != b->dev[k])
			cudaFree(dev[k]);
	free_case(b);
}

/*
 * The shapes a launcher picks at the timed size, too large to simulate: its
 * launches are checked and recorded but not run (cudasimDryLaunches), over
 * small buffers; sent as the measured case's launches with aux (2: the
 * student's, 3: the reference's). What the launcher's memsets of the small
 * buffers say is not looked at.
 */
static void
send_dry_launches(uint32_t aux, const void *launcher)
{
	struct check_case c;
	memset(&c, 0, sizeof(c));
	memcpy(c.dims, cfg.estimate_at, sizeof(c.dims));
	check_definition.buffers(&c);
	void *dev[PROTO_MAX_BUFFERS] = { 0 };
	bool ready = true;
	for (int k = 0; k < c.nbuffers && ready; k++)
		ready = cudaMalloc(&dev[k], 4096) == cudaSuccess;
	static struct cudasimChecks seen;
	cudasimTakeChecks(&seen);
	if (ready) {
		cudasimDryLaunches(ESTIMATE_SMS);
		check_definition.launch(launcher, &c, dev);
		cudaDeviceSynchronize();
		cudasimDryLaunches(0);
		cudaGetLastError();
		cudasimTakeChecks(&seen);
		send_launches(cfg.measured, aux, &seen, 0, ESTIMATE_SMS);
	}
	static struct cudasimLine lines[PROTO_MAX_LINES];
	cudasimTakeLines(lines, PROTO_MAX_LINES);
	for (int k = 0; k < c.nbuffers; k++)
		if (dev[k])
			cudaFree(dev[k]);
}
#endif

static void
run_correctness_case(int index)
{
	current_case = index;
	struct case_buffers b;
	proto_send(channel, MSG_CASE_BEGIN, (uint32_t)index, 0, NULL, 0);
	if (setup_case(index, &b) == 0 &&
	    harness_call(index, "poisoning the outputs", poison_outputs(&b, b.dev)) == 0 &&
	    launch_and_wait(index, PROTO_STAGE_RUN, student_launcher, &b, b.dev) == 0 && !figures_only_case(index) &&
	    send_outputs(index, &b, b.dev) == 0) {
		verify_inputs(index, &b);
#ifdef __CUDASIM__
		if (again_case(index))
			run_again(index, &b);
#endif
	}
	free_case(&b);
}

/* ------------------------------------------------------------------ timing */

enum { ROUNDS_MIN = 20, ROUNDS_MAX = 2000 };

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

static bool
has_physical(void)
{
	return cudalings_physical_launch != NULL;
}

/* The buffers a variant runs on: the inputs are everyone's, the outputs each its own. */
static void *const *
variant_buffers(const struct timing_state *t, enum variant v)
{
	switch (v) {
	case VARIANT_STUDENT:
		return t->b->dev;
	case VARIANT_GOLD:
		return t->gold_dev;
	case VARIANT_PHYSICAL:
		return t->physical_dev;
	default:
		return t->ref_dev;
	}
}

/* Blocks of 256 for a grid-stride loop over n elements: no more than a GPU runs at once, nor than n needs
 * (the simulator runs every block, with work or not). */
static unsigned
blocks_for(size_t n, unsigned most)
{
	size_t blocks = (n + 255) / 256;
	return blocks < 1 ? 1 : blocks > most ? most : (unsigned)blocks;
}

/* An input, as cases_fill draws it on the host. */
__global__ void
draw_inputs(void *dst, size_t n, uint64_t stream, uint32_t type, double lo, double hi)
{
	size_t size = dtype_size(type);
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
		rng_draw(type, lo, hi, stream, i, (char *)dst + i * size);
}

static cudaError_t
draw_case_input(int index, const struct case_buffers *b, int k, void *dst)
{
	const struct buffer_spec *spec = &b->c.spec[k];
	draw_inputs<<<1024, 256>>>(dst, check_elements(spec), rng_stream(cfg.seed, cfg.stream[index], (uint32_t)k),
				   (uint32_t)spec->type, spec->lo, spec->hi);
	return cudaGetLastError();
}

/*
 * Whether input k, drawn on the device, is still what was drawn: drawn again
 * beside it and compared there. 1 with *first the first element changed, 0
 * when unchanged, -1 when it could not be checked (said already).
 */
static int
inputs_changed_on_device(int index, const struct case_buffers *b, int k, uint64_t *first)
{
	void *again = NULL;
	unsigned long long found;
	int result = -1;
	if (!harness_call(index, "checking the inputs", cudaMalloc(&again, b->bytes[k])) &&
	    !harness_call(index, "checking the inputs", draw_case_input(index, b, k, again)) &&
	    !first_unlike_on_device(index, "checking the inputs", b->dev[k], again, 0, b->bytes[k], &found)) {
		result = found != ~0ull;
		*first = found / dtype_size(b->c.spec[k].type);
	}
	cudaFree(again);
	return result;
}

/* How far the student's outputs of a round are from the reference solution's on the same inputs. */
struct round_check {
	double magnitude;          /* the sum of |reference| */
	unsigned long long wrong;  /* elements beyond the tolerance, NaN included */
	unsigned long long first;  /* the first of them */
};

__global__ void
sum_magnitude(const void *ref, uint32_t type, size_t n, struct round_check *c)
{
	double sum = 0;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
		sum += fabs(dtype_load(ref, type, i));
	atomicAdd(&c->magnitude, sum);
}

/*
 * Floats loose on purpose: a legitimate kernel that sums in another order
 * differs from the reference by far less than 1% of the outputs' mean
 * magnitude; a result remembered from other inputs differs by about that
 * magnitude. Integers exactly: any order of integer atomics gives one result.
 */
__global__ void
compare_round(const void *student, const void *ref, uint32_t type, size_t n, double float_rtol, struct round_check *c)
{
	double mean = c->magnitude / (double)(n ? n : 1);
	double rtol = dtype_is_float(type) ? float_rtol : 0;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
		double s = dtype_load(student, type, i), r = dtype_load(ref, type, i);
		if (!(fabs(s - r) <= rtol * (fabs(r) + mean))) {
			atomicAdd(&c->wrong, 1ull);
			atomicMin(&c->first, (unsigned long long)i);
		}
	}
}

static int
draw_round_inputs(struct timing_state *t)
{
	uint64_t streams[PROTO_MAX_BUFFERS];
	for (int k = 0; k < t->b->c.nbuffers; k++) {
		if (t->b->c.spec[k].role != BUFFER_IN)
			continue;
		const struct buffer_spec *spec = &t->b->c.spec[k];
		streams[k] = rng_stream(cfg.seed, cases_round_stream(&cfg, t->round), (uint32_t)k);
		size_t n = check_elements(spec);
		draw_inputs<<<blocks_for(n, 1024), 256>>>(t->b->dev[k], n, streams[k], (uint32_t)spec->type, spec->lo,
							  spec->hi);
	}
	return harness_call(t->index, "drawing the inputs", cudaGetLastError());
}

/*
 * Time one launch of `v` from a cold L2 and poisoned outputs; returns µs, or
 * -1 on an error. Every variant is timed alike: the device idle first, then
 * fresh inputs, the flush and the poison, so the GPU is still busy with them
 * while the launch is queued and no launch latency lands between the events.
 * *off_clock gets the host time the launch took beyond the GPU's whole span
 * (inputs to stop): work left running outside the timed launch shows up there.
 */
static double
time_once(struct timing_state *t, enum variant v, unsigned flush_value, double *off_clock)
{
	int index = t->index;
	if (harness_call(index, "cudaDeviceSynchronize", cudaDeviceSynchronize()))
		return -1;
	double w0 = stats_now_us();
	cudaEventRecord(t->span);
	/* the reference and the student each get the round's inputs afresh: neither sees what the other left */
	if (v != VARIANT_COPY && draw_round_inputs(t))
		return -1;
	if (harness_call(index, "flushing the L2 cache", cudaMemsetAsync(t->flush, (int)(flush_value & 0xff), t->flush_bytes)))
		return -1;
	if (v != VARIANT_COPY &&
	    harness_call(index, "poisoning the outputs", poison_outputs(t->b, variant_buffers(t, v))))
		return -1;
	cudaEventRecord(t->start);
	cudaError_t launched = cudaSuccess;
	if (v == VARIANT_COPY)
		cudaMemcpyAsync(t->copy_dst, t->copy_src, t->copy_bytes, cudaMemcpyDeviceToDevice);
	else if (v == VARIANT_PHYSICAL)
		cudalings_physical_launch(&t->b->c, variant_buffers(t, v));
	else
		launched = call_launcher(index, v == VARIANT_STUDENT ? student_launcher
					 : v == VARIANT_GOLD ? cudalings_gold_launcher : cudalings_reference_launcher,
					 &t->b->c, variant_buffers(t, v));
	cudaEventRecord(t->stop);
	cudaError_t e = launched != cudaSuccess ? launched : cudaGetLastError();
	if (e == cudaSuccess)
		e = cudaEventSynchronize(t->stop);
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	double wall = stats_now_us() - w0;
	if (e != cudaSuccess) {
		static const char *const what[] = { "timing the reference solution", "timing the kernel",
						    "timing a copy", "timing the gold solution", "timing the physical reference" };
		report_cuda_error(index, PROTO_STAGE_TIMING, what[v], e);
		return -1;
	}
	float ms = 0, span_ms = 0;
	cudaEventElapsedTime(&ms, t->start, t->stop);
	cudaEventElapsedTime(&span_ms, t->span, t->stop);
	if (off_clock)
		*off_clock = wall - span_ms * 1000.0;
	return ms * 1000.0;
}

/* The reference's outputs for this round's inputs, untimed, after the student's launch. */
static int
reference_again(struct timing_state *t)
{
	if (draw_round_inputs(t) ||
	    harness_call(t->index, "poisoning the outputs", poison_outputs(t->b, t->ref_dev)))
		return -1;
	check_definition.launch(cudalings_reference_launcher, &t->b->c, t->ref_dev);
	return harness_call(t->index, "running the reference solution", cudaGetLastError()) ||
	       harness_call(t->index, "running the reference solution", cudaDeviceSynchronize());
}

/*
 * Every round's outputs count: each is compared on the device with the
 * reference solution's for the same inputs, and the round the grader picked
 * goes to it whole, to be judged against the judge's own reference (with
 * `judged` false, as on the simulator, none goes).
 */
/*
 * How far a round's float outputs may be from the reference kernel's, relative
 * to the element and the outputs' mean magnitude. A long sum (a reduction)
 * rounds differently in every order, and its judge allows it a share of
 * the sum of |terms|: 1%. Exercises of 4 or more flops a byte (the matrix
 * products) sum short dot products of inputs in -1..1, whose float rounding
 * stays far below 0.1% of their magnitude, while half precision or TF32
 * inputs miss it by a few times: 0.1% there.
 */
static double
round_rtol(const struct check_case *c)
{
	double bytes = check_definition.bytes(c), flops = check_definition.flops ? check_definition.flops(c) : 0;
	return bytes > 0 && flops / bytes >= 4 ? 1e-3 : 1e-2;
}

static int
check_round(struct timing_state *t, bool judged)
{
	struct case_buffers *b = t->b;
	for (int k = 0; k < b->c.nbuffers; k++) {
		if (b->c.spec[k].role != BUFFER_OUT)
			continue;
		size_t n = check_elements(&b->c.spec[k]), size = dtype_size(b->c.spec[k].type);
		uint32_t type = (uint32_t)b->c.spec[k].type;
		struct round_check c = { 0, 0, ~0ull };
		if (harness_call(t->index, "checking a round",
				 cudaMemcpy(t->check, &c, sizeof(c), cudaMemcpyHostToDevice)))
			return -1;
		if (dtype_is_float(type))
			sum_magnitude<<<blocks_for(n, 256), 256>>>(t->ref_dev[k], type, n, t->check);
		compare_round<<<blocks_for(n, 1024), 256>>>(b->dev[k], t->ref_dev[k], type, n, round_rtol(&b->c), t->check);
		if (harness_call(t->index, "checking a round", cudaGetLastError()) ||
		    harness_call(t->index, "checking a round",
				 cudaMemcpy(&c, t->check, sizeof(c), cudaMemcpyDeviceToHost)))
			return -1;
		if (c.wrong) {
			unsigned char student[8] = { 0 }, reference[8] = { 0 };
			cudaMemcpy(student, (const unsigned char *)b->dev[k] + c.first * size, size, cudaMemcpyDeviceToHost);
			cudaMemcpy(reference, (const unsigned char *)t->ref_dev[k] + c.first * size, size,
				   cudaMemcpyDeviceToHost);
			struct proto_round_differs d = { (uint32_t)t->round, (uint32_t)k, c.first, c.wrong,
							 dtype_load(student, type, 0), dtype_load(reference, type, 0) };
			proto_send(channel, MSG_ROUND_DIFFERS, (uint32_t)t->index, (uint32_t)k, &d, sizeof(d));
			return -1;
		}
		if (judged && t->round == cfg.check_round) {
			long long bytes = fetch_output(t->index + 1, b, k, b->dev[k], b->host[k]);
			if (bytes < 0)
				return -1;
			if (proto_send(channel, MSG_OUTPUT, (uint32_t)t->index + 1, (uint32_t)k, b->host[k], (size_t)bytes))
				exit(1);
		}
	}
	return 0;
}

#ifdef __CUDASIM__
/*
 * The simulator times nothing, so it has no timed rounds to catch a kernel
 * that remembers results or computes only some launches: a case runs once
 * more (again_case says which) in its own buffers, with inputs drawn afresh from the secret seed,
 * and its outputs are compared with the reference solution's for them, as
 * the GPU's timed rounds are.
 */
static void
run_again(int index, struct case_buffers *b)
{
	struct timing_state t;
	memset(&t, 0, sizeof(t));
	t.index = index;
	t.b = b;
	bool ready = harness_call(index, "allocating the round check", cudaMalloc(&t.check, sizeof(*t.check))) == 0;
	for (int k = 0; k < b->c.nbuffers; k++) {
		t.ref_dev[k] = b->dev[k];
		if (ready && b->c.spec[k].role == BUFFER_OUT)
			ready = harness_call(index, "cudaMalloc in the harness", cudaMalloc(&t.ref_dev[k], b->bytes[k])) == 0;
	}
	/* races and the figures were the case's to find: this launch only needs its result, once */
	cudasimConfigure(0, sim_launch_limit());
	cudasimCheck(0);
	if (ready && draw_round_inputs(&t) == 0 &&
	    harness_call(index, "poisoning the outputs", poison_outputs(b, b->dev)) == 0) {
		check_definition.launch(student_launcher, &b->c, b->dev);
		cudaError_t e = cudaGetLastError();
		if (e == cudaSuccess)
			e = cudaDeviceSynchronize();
		/* what the checks saw and the figures per line are the case's, sent with it already */
		static struct cudasimChecks seen;
		static struct cudasimLine lines[PROTO_MAX_LINES];
		cudasimTakeChecks(&seen);
		cudasimTakeLines(lines, PROTO_MAX_LINES);
		if (e != cudaSuccess)
			report_cuda_error(index, PROTO_STAGE_RUN, "running the case again", e);
		else if (reference_again(&t) == 0)
			check_round(&t, false);
	}
	cudasimConfigure(1, sim_launch_limit());
	cudasimCheck(1);
	for (int k = 0; k < b->c.nbuffers; k++)
		if (t.ref_dev[k] != b->dev[k])
			cudaFree(t.ref_dev[k]);
	cudaFree(t.check);
}
#endif

struct measurement {
	double student_us, reference_us, copy_us, gold_us, physical_us, ratio, ratio_lo, ratio_hi, wall_us;
	int rounds;
};

/* Rounds until the median ratio is known to ±1% (at least ROUNDS_MIN, at most the time cap). */
static int
measure(struct timing_state *t, double cap_us, struct measurement *m)
{
	static double student[ROUNDS_MAX], reference[ROUNDS_MAX], copy[ROUNDS_MAX], gold[ROUNDS_MAX],
		physical[ROUNDS_MAX], ratio[ROUNDS_MAX], wall[ROUNDS_MAX], scratch[ROUNDS_MAX];
	double begin = stats_now_us();
	int n = 0;
	while (n < ROUNDS_MAX) {
		/* alternate which goes first so neither always meets the other's leftovers */
		enum variant first = n % 2 ? VARIANT_STUDENT : VARIANT_REFERENCE;
		enum variant second = n % 2 ? VARIANT_REFERENCE : VARIANT_STUDENT;
		double a = time_once(t, first, (unsigned)(2 * n), first == VARIANT_STUDENT ? &wall[n] : NULL);
		/* the reference's answer to these very inputs must not lie in device memory while the
		   student's kernel runs, for it to find and copy: poisoned now, made again afterwards */
		if (a >= 0 && first == VARIANT_REFERENCE &&
		    harness_call(t->index, "poisoning the outputs", poison_outputs(t->b, t->ref_dev)))
			return -1;
		double b = a < 0 ? -1 : time_once(t, second, (unsigned)(2 * n + 1), second == VARIANT_STUDENT ? &wall[n] : NULL);
		double c = b < 0 ? -1 : time_once(t, VARIANT_COPY, (unsigned)n, NULL);
		if (c < 0 || (first == VARIANT_REFERENCE && reference_again(t)) || check_round(t, true))
			return -1;
		/* where the student stands between the reference and the limit, in the same rounds */
		gold[n] = cudalings_gold_launcher ? time_once(t, VARIANT_GOLD, (unsigned)n, NULL) : 0;
		physical[n] = has_physical() ? time_once(t, VARIANT_PHYSICAL, (unsigned)n, NULL) : 0;
		if (gold[n] < 0 || physical[n] < 0)
			return -1;
		t->round++;
		student[n] = first == VARIANT_STUDENT ? a : b;
		reference[n] = first == VARIANT_STUDENT ? b : a;
		copy[n] = c;
		ratio[n] = student[n] / (reference[n] > 0 ? reference[n] : 1e-3);
		n++;
		if (n >= ROUNDS_MIN) {
			double lo, hi;
			memcpy(scratch, ratio, n * sizeof(double));
			double med = stats_median_ci(scratch, (size_t)n, &lo, &hi);
			if ((hi - lo) / 2 <= 0.01 * med || stats_now_us() - begin > cap_us)
				break;
		}
	}
	m->rounds = n;
	m->student_us = stats_median(student, (size_t)n);
	m->reference_us = stats_median(reference, (size_t)n);
	m->copy_us = stats_median(copy, (size_t)n);
	m->gold_us = stats_median(gold, (size_t)n);
	m->physical_us = stats_median(physical, (size_t)n);
	m->wall_us = stats_median(wall, (size_t)n);
	m->ratio = stats_median_ci(ratio, (size_t)n, &m->ratio_lo, &m->ratio_hi);
	return 0;
}

/* A buffer whose memset empties the L2: twice its size, and no less than 256 MiB. */
static cudaError_t
alloc_flush(void **flush, size_t *bytes)
{
	int l2 = 0, device = 0;
	cudaGetDevice(&device);
	cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device);
	*bytes = (size_t)2 * (size_t)l2;
	if (*bytes < ((size_t)256 << 20))
		*bytes = (size_t)256 << 20;
	return cudaMalloc(flush, *bytes);
}

static int
alloc_timing(struct timing_state *t)
{
	int index = t->index;
	double bytes = check_definition.bytes(&t->b->c);
	t->copy_bytes = ((size_t)(bytes / 2) + 255) & ~(size_t)255;
	if (harness_call(index, "allocating the L2 flush buffer", alloc_flush(&t->flush, &t->flush_bytes)) ||
	    harness_call(index, "allocating the copy buffers", cudaMalloc(&t->copy_src, t->copy_bytes)) ||
	    harness_call(index, "allocating the copy buffers", cudaMalloc(&t->copy_dst, t->copy_bytes)) ||
	    harness_call(index, "allocating the round check", cudaMalloc(&t->check, sizeof(*t->check))) ||
	    harness_call(index, "cudaMemset", cudaMemset(t->copy_src, 0x3c, t->copy_bytes)))
		return -1;
	void **outputs[] = { t->ref_dev, cudalings_gold_launcher ? t->gold_dev : NULL,
			     has_physical() ? t->physical_dev : NULL };
	for (size_t o = 0; o < sizeof(outputs) / sizeof(*outputs); o++)
		for (int k = 0; outputs[o] && k < t->b->c.nbuffers; k++) {
			if (t->b->c.spec[k].role != BUFFER_OUT)
				outputs[o][k] = t->b->dev[k];
			else if (harness_call(index, "cudaMalloc in the harness",
					      cudaMalloc(&outputs[o][k], t->b->bytes[k])))
				return -1;
		}
	cudaEventCreate(&t->span);
	cudaEventCreate(&t->start);
	cudaEventCreate(&t->stop);
	return 0;
}

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

static void
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
static bool
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

static void
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

#ifdef __CUDASIM__



/* Host code that reads or writes "device" memory, which on a GPU it cannot reach: said in those words. */
static void
on_host_fault(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if (cudasimGuardedDeviceAddress(si->si_addr)) {
		static const char text[] = "host code touched device memory outside a kernel (a loop over a cudaMalloc'd "
					   "pointer in the launcher, say): on a GPU that memory is not the host's and this "
					   "is an illegal access; only kernels and cudaMemcpy/cudaMemset may touch it";
		struct proto_header h = { PROTO_MAGIC, MSG_ERROR, (uint32_t)current_case, PROTO_STAGE_RUN, sizeof(text) - 1 };
		if (write(channel, &h, sizeof(h)) == (ssize_t)sizeof(h))
			(void)!write(channel, text, sizeof(text) - 1);
		_exit(1);
	}
	signal(sig, SIG_DFL);
}

static void
catch_host_faults(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_host_fault;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
}
#endif


/*
 * Open the GPU, enter the sandbox, then load the submission: its code, its
 * constructors too, runs only under the filter. The grader hears HELLO
 * before the loading, so a constructor that never returns is found quickly.
 */
static void
load_student(void)
{
#ifndef __CUDASIM__
	/* the context, its threads and the files it opens lazily exist before the filter (not under a tool:
	   its figures are the student's; but for a tool's process started early, the point's: its tool,
	   Nsight Compute from cudaProfilerStart on, sees nothing of this, and the context, with what the
	   tool sets up in it, is made while the file compiles rather than after the graded run) */
	if (!cfg.under_tool || cfg.wait_go)
		gpu_open_before_filter();
	cudaGetLastError();
	if (!cfg.under_tool)
		clocks_open();
#endif
	/* the inputs' threads too: the simulator's filter refuses new ones */
	static volatile int threads;
	#pragma omp parallel
	{
		#pragma omp atomic
		threads++;
	}
	if (sandbox_enter(channel, is_simulator(), cfg.under_tool)) {
		proto_sendf(channel, MSG_ERROR, 0, PROTO_STAGE_DEVICE, "the system-call filter could not be installed");
		proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
		exit(1);
	}
	/* started while the submission compiled: the GPU is open, the filter in place; the grader says
	   when the file is there, or closes our input when there is nothing to run */
	char go;
	if (cfg.wait_go && read(0, &go, 1) != 1)
		exit(0);
	char why[1024];
#ifdef __CUDASIM__
	/* its faults and checks name lines of the student's file */
	cudasimProgramObject(cfg.student);
	student_launcher = cfg.student ? sandbox_load(cfg.student, cudalings_launcher_name, why, sizeof(why)) : NULL;
	/* as on a GPU, host code cannot read or write device memory: only kernels and runtime calls can */
	catch_host_faults();
	cudasimGuardDeviceMemory(1);
	if (!student_launcher) {
		proto_sendf(channel, MSG_REFUSED, 0, SANDBOX_LOAD, "%s", cfg.student ? why : "no --student given");
		proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
		exit(1);
	}
#else
	/* only the device code, as data, and the plans the grader checked: no host code of the student's */
	static const char plans_stand_in = 0;
	if (replay_open(&cfg, why, sizeof(why))) {
		proto_sendf(channel, MSG_REFUSED, 0, SANDBOX_RUN, "its launcher's calls could not be replayed: %s", why);
		proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
		exit(1);
	}
	student_launcher = &plans_stand_in;
#endif
}

int
main(int argc, char **argv)
{
	if (cases_parse(argc, argv, &cfg))
		return 2;
	channel = cfg.channel_fd;
#ifdef __CUDASIM__
	/* the order check always, and a CPU-time limit per launch under the grader's per-case one */
	cudasimConfigure(1, sim_launch_limit());
#endif
	/* the driver's JIT cache is a file it writes: the sandbox writes none */
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	send_device();
	load_student();
	for (int i = 0; i < cfg.ncases; i++) {
		if (i == cfg.timed)
			run_timed_case(i);
		else if (i != cfg.timed + 1 || cfg.timed < 0)
			run_correctness_case(i);
	}

	proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
#ifdef __CUDASIM__
	/* after every case, and after the grader heard they are done: what the reference's run or the
	   launchers' calls at the timed size do (an error, a crash) meets no case of the student's */
	if (cfg.measured >= 0 && cfg.estimate_at[0] > 0 && cudaPeekAtLastError() == cudaSuccess) {
		send_reference_launches(cfg.measured);
		send_dry_launches(2, student_launcher);
		send_dry_launches(3, cudalings_reference_launcher);
	}
#endif
	return 0;
}
