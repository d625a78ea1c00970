/*
 * One case of the runner (harness/runner.h): its buffers, each with a guard
 * past its end, the inputs drawn (on the host, or on the device at the timed
 * size), the outputs poisoned, the launch (the student's plan replayed on a
 * GPU, its launcher called on the simulator) and its wait, the outputs
 * fetched (a large one's sample) and sent, a second launch over a second
 * poison where an output may still hold the first, and the inputs checked
 * for writes. The grader judges what this sends; nothing here decides.
 */
#include <cuda_runtime.h>
#ifndef __CUDASIM__
#include <cuda_profiler_api.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "harness/runner.h"
extern "C" {
#include "harness/rng.h"
}
#ifndef __CUDASIM__
#include "harness/replay.h"
#endif

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
uint64_t
case_bytes(const struct case_buffers *b)
{
	uint64_t n = 0;
	for (int k = 0; k < b->c.nbuffers; k++)
		n += b->bytes[k];
	return n;
}

int
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
#ifdef __CUDASIM__
		/* the submission's host code runs in this process: no copy of the inputs is left where it could
		   read them, only the device's (verify_inputs draws them again) */
		if (input && b->host[k]) {
			explicit_bzero(b->host[k], b->bytes[k]);
			free(b->host[k]);
			b->host[k] = NULL;
		}
#endif
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

void
free_case(struct case_buffers *b)
{
	for (int k = 0; k < b->c.nbuffers; k++) {
		free(b->host[k]);
		if (b->dev[k])
			cudaFree(b->dev[k]);
	}
}

/* Poison the outputs so that an element no thread writes holds its type's poison (a float's is NaN). */
cudaError_t
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
cudaError_t
call_launcher(int index, const void *fn, const struct check_case *c, void *const *dev)
{
#ifndef __CUDASIM__
	if (fn == student_launcher)
		return replay_case(index, dev);
#else
	(void)index;
	if (fn == student_launcher)
		before_student_code();
#endif
	check_definition.launch(fn, c, dev);
	return cudaGetLastError();
}

int
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
long long
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

int
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
void
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
		std::vector<unsigned char> now(b->bytes[k] ? b->bytes[k] : 1), drawn;
		const unsigned char *was = b->host[k];
		if (!was) {
			/* the simulator's setup_case kept no copy: the same inputs, drawn again */
			drawn.resize(now.size());
			cases_fill(&cfg, index, k, &b->c.spec[k], drawn.data());
			was = drawn.data();
		}
		if (harness_call(index, "copying the inputs back",
				 cudaMemcpy(now.data(), b->dev[k], b->bytes[k], cudaMemcpyDeviceToHost)))
			return;
		bool same = memcmp(now.data(), was, b->bytes[k]) == 0;
		while (!same && first < n && memcmp(&now[first * size], &was[first * size], size) == 0)
			first++;
#ifdef __CUDASIM__
		/* no copy of the inputs left in the heap for the submission's next call to find */
		explicit_bzero(now.data(), now.size());
		explicit_bzero(drawn.data(), drawn.size());
#endif
		if (same)
			continue;
		proto_send(channel, MSG_INPUT_CHANGED, (uint32_t)index, (uint32_t)k, &first, sizeof(first));
	}
}

void
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

/* An input, as cases_fill draws it on the host. */
__global__ void
draw_inputs(void *dst, size_t n, uint64_t stream, uint32_t type, double lo, double hi)
{
	size_t size = dtype_size(type);
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
		rng_draw(type, lo, hi, stream, i, (char *)dst + i * size);
}

void
draw_input(void *dst, size_t n, uint64_t stream, const struct buffer_spec *spec, unsigned blocks)
{
	draw_inputs<<<blocks, 256>>>(dst, n, stream, (uint32_t)spec->type, spec->lo, spec->hi);
}

static cudaError_t
draw_case_input(int index, const struct case_buffers *b, int k, void *dst)
{
	const struct buffer_spec *spec = &b->c.spec[k];
	draw_input(dst, check_elements(spec), rng_stream(cases_seed(&cfg), cfg.stream[index], (uint32_t)k), spec, 1024);
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
