/*
 * The runner's rounds (harness/runner.h): one launch of a variant (the
 * student's, the reference's, a copy, the gold solution, the physical
 * reference) timed with events from a cold L2, on fresh inputs and poisoned
 * outputs; each round's outputs compared with the reference's for the same
 * inputs, on the device, the grader's round sent whole; rounds until the
 * median ratio is known; the buffers a timing needs. The GPU's timed case
 * uses them all, the simulator's case run again one round's check.
 */
#include <cuda_runtime.h>

#include <math.h>
#include <string.h>

#include "harness/runner.h"
extern "C" {
#include "harness/rng.h"
#include "harness/stats.h"
}

bool
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

int
draw_round_inputs(struct timing_state *t)
{
	uint64_t streams[PROTO_MAX_BUFFERS];
	for (int k = 0; k < t->b->c.nbuffers; k++) {
		if (t->b->c.spec[k].role != BUFFER_IN)
			continue;
		const struct buffer_spec *spec = &t->b->c.spec[k];
		streams[k] = rng_stream(cases_seed(&cfg), cases_round_stream(&cfg, t->round), (uint32_t)k);
		size_t n = check_elements(spec);
		draw_input(t->b->dev[k], n, streams[k], spec, blocks_for(n, 1024));
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
double
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
int
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

int
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

/* Rounds until the median ratio is known to ±1% (at least ROUNDS_MIN, at most the time cap). */
int
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
cudaError_t
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

int
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
