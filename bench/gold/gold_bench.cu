/*
 * gold_bench: every graded exercise's reference solution, gold solution and
 * physical reference (a device-to-device copy of the bytes the kernel must
 * move; cuBLAS SGEMM in FP32 for the matrix products), timed side by side in
 * the same rounds, as the grader's runner does, and checked first.
 *
 * The plan (bench/gold/plan.py, from workbook.json) lists each exercise with
 * its check (harness/checks/NAME.cpp: buffers, CPU reference, launch, bytes,
 * flops), its cases, its timed size and the launchers built from
 * solutions/NAME.cu, solutions/gold/NAME.cu and any extra variants
 * (bench/gold/build.sh). Per exercise:
 *
 *   1. correctness: every launcher at every case of workbook.json and at the
 *      timed size, against the check's double-precision reference with the
 *      exercise's tolerance (rtol × the reported magnitude + atol); where
 *      that reference is too slow on a CPU (matrix products at the timed
 *      size), against cuBLAS with the same rtol and a magnitude of k;
 *   2. timing: rounds, each flushing the L2 (a memset of max(2 × L2, 256 MiB)),
 *      poisoning the outputs and timing one launch of every variant with
 *      events, the variants in a rotated order; the medians over the rounds.
 *
 * Prints a Markdown table (µs, GB/s or TFLOP/s, % of the physical reference,
 * × the reference solution); exit 1 when any launcher was wrong.
 *
 *   gold_bench [--rounds N] [--only NAME] [--skip-check] [--launch LABEL]
 *
 * --launch LABEL launches only that variant, twice, at the timed size, and
 * times nothing: what Nsight Compute profiles (bench/memory_map/run.sh).
 */
#include <cuda_runtime.h>

#include <algorithm>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <time.h>
#include <vector>

#include "harness/check.h"

extern "C" int cudalings_physical_launch(const struct check_case *c, void *const *b);

struct variant {
	const char *label; /* "reference", "gold", or a variant's name */
	const void *fn;
};

struct shape {
	int dims[PROTO_MAX_DIMS];
};

struct exercise {
	const char *name;
	const struct check *check;
	int ndims;
	double rtol, atol;
	bool physical; /* cuBLAS SGEMM, not a copy */
	std::vector<shape> cases;
	std::vector<shape> timed; /* the workbook's timed size, then any extra sizes to time */
	std::vector<variant> variants;
};

#include "plan.inc" /* static std::vector<exercise> make_plan(void) */

#define CUDA(call)                                                                                     \
	do {                                                                                           \
		cudaError_t e_ = (call);                                                               \
		if (e_ != cudaSuccess) {                                                               \
			fprintf(stderr, "gold_bench: %s: %s (%s:%d)\n", #call, cudaGetErrorString(e_), \
				__FILE__, __LINE__);                                                   \
			exit(3);                                                                       \
		}                                                                                      \
	} while (0)

static int failures;

/* Inputs in [-1, 1), from a hash of (buffer, index): the same on every run. */
static void
fill(float *v, size_t n, uint64_t stream)
{
	#pragma omp parallel for
	for (size_t i = 0; i < n; i++) {
		uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull ^ (stream * 0xbf58476d1ce4e5b9ull);
		x ^= x >> 31;
		x *= 0x94d049bb133111ebull;
		x ^= x >> 29;
		v[i] = (float)((double)(x >> 40) / (double)(1ull << 24) * 2.0 - 1.0);
	}
}

static std::string
shape_name(const exercise &e, const shape &s)
{
	std::string out;
	for (int d = 0; d < e.ndims; d++) {
		if (d)
			out += "x";
		out += std::to_string(s.dims[d]);
	}
	return out;
}

/* One case's buffers, host and device. */
struct buffers {
	check_case c;
	std::vector<std::vector<float>> host;
	void *dev[PROTO_MAX_BUFFERS];

	buffers(const exercise &e, const shape &s)
	{
		memset(&c, 0, sizeof(c));
		memcpy(c.dims, s.dims, sizeof(c.dims));
		e.check->buffers(&c);
		host.resize(c.nbuffers);
		for (int k = 0; k < c.nbuffers; k++) {
			size_t n = check_elements(&c.spec[k]);
			host[k].resize(n);
			CUDA(cudaMalloc(&dev[k], n * sizeof(float) + 16));
			if (c.spec[k].role == BUFFER_IN) {
				fill(host[k].data(), n, (uint64_t)k + 1);
				CUDA(cudaMemcpy(dev[k], host[k].data(), n * sizeof(float), cudaMemcpyHostToDevice));
			}
		}
	}
	~buffers()
	{
		for (int k = 0; k < c.nbuffers; k++)
			cudaFree(dev[k]);
	}
	void poison(void)
	{
		for (int k = 0; k < c.nbuffers; k++)
			if (c.spec[k].role == BUFFER_OUT)
				CUDA(cudaMemsetAsync(dev[k], 0xff, check_elements(&c.spec[k]) * sizeof(float)));
	}
	size_t output(void) const
	{
		for (int k = 0; k < c.nbuffers; k++)
			if (c.spec[k].role == BUFFER_OUT)
				return (size_t)k;
		return 0;
	}
};

/* The expected outputs: the check's CPU reference, or cuBLAS where that is too slow. */
struct expected {
	std::vector<proto_expect> v;
	bool from_cublas = false;
};

static void
compute_expected(const exercise &e, buffers &b, expected &x)
{
	size_t out = b.output(), n = check_elements(&b.c.spec[out]);
	x.v.assign(n, proto_expect{ 0, 0 });
	if (e.check->flops(&b.c) > 2e9 && e.physical) {
		b.poison();
		if (cudalings_physical_launch(&b.c, b.dev))
			exit(3);
		CUDA(cudaDeviceSynchronize());
		std::vector<float> r(n);
		CUDA(cudaMemcpy(r.data(), b.dev[out], n * sizeof(float), cudaMemcpyDeviceToHost));
		for (size_t i = 0; i < n; i++)
			x.v[i] = proto_expect{ r[i], e.rtol * b.c.dims[1] + e.atol };
		x.from_cublas = true;
		return;
	}
	std::vector<const void *> in(b.c.nbuffers, nullptr); /* as check.h lays them out: every buffer here is float32 */
	std::vector<proto_expect *> outs(b.c.nbuffers, nullptr);
	for (int k = 0; k < b.c.nbuffers; k++)
		if (b.c.spec[k].role == BUFFER_IN)
			in[k] = b.host[k].data();
	outs[out] = x.v.data();
	e.check->reference(&b.c, in.data(), outs.data());
	for (auto &p : x.v)
		p.bound = e.rtol * p.bound + e.atol;
}

/* Runs `v` on `b` and compares with `x`; says what is wrong, if anything. */
static bool
verify(const exercise &e, const variant &v, buffers &b, const expected &x)
{
	size_t out = b.output(), n = check_elements(&b.c.spec[out]);
	b.poison();
	e.check->launch(v.fn, &b.c, b.dev);
	cudaError_t err = cudaGetLastError();
	if (err == cudaSuccess)
		err = cudaDeviceSynchronize();
	if (err != cudaSuccess) {
		printf("  FAIL %s %s at %s: %s\n", e.name, v.label, shape_name(e, shape{ { b.c.dims[0], b.c.dims[1],
				b.c.dims[2], b.c.dims[3] } }).c_str(), cudaGetErrorString(err));
		exit(3);
	}
	std::vector<float> got(n);
	CUDA(cudaMemcpy(got.data(), b.dev[out], n * sizeof(float), cudaMemcpyDeviceToHost));
	size_t wrong = 0, first = 0;
	for (size_t i = 0; i < n; i++) {
		double d = fabs((double)got[i] - x.v[i].value);
		if (!(d <= x.v[i].bound)) {
			if (!wrong++)
				first = i;
		}
	}
	if (wrong) {
		printf("  FAIL %s %s at %s: %zu of %zu wrong, first [%zu] = %g, expected %g%s\n", e.name, v.label,
		       shape_name(e, shape{ { b.c.dims[0], b.c.dims[1], b.c.dims[2], b.c.dims[3] } }).c_str(), wrong,
		       n, first, got[first], x.v[first].value, x.from_cublas ? " (cuBLAS)" : "");
		failures++;
		return false;
	}
	return true;
}

static double
median(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	size_t n = v.size();
	return n ? (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : 0;
}

struct row {
	bool flop_bound; /* a matrix product: its TFLOP/s are the figure, and the copy is no limit of it */
	bool copy;
	std::string exercise, shape, variant;
	double us, lo, hi, gbps, tflops, pct, ratio;
};
static std::vector<row> rows;

enum { COPY = -1, PHYSICAL = -2 };

/* Every variant, the copy and (matmul) cuBLAS, in the same rounds. */
static void
time_shape(const exercise &e, const shape &s, int rounds, void *flush, size_t flush_bytes)
{
	buffers b(e, s);
	double bytes = e.check->bytes(&b.c), flops = e.check->flops(&b.c);
	size_t copy_bytes = ((size_t)(bytes / 2) + 255) & ~(size_t)255;
	void *src, *dst;
	CUDA(cudaMalloc(&src, copy_bytes));
	CUDA(cudaMalloc(&dst, copy_bytes));
	CUDA(cudaMemset(src, 0x3c, copy_bytes));
	std::vector<int> who;
	for (int i = 0; i < (int)e.variants.size(); i++)
		who.push_back(i);
	who.push_back(COPY);
	if (e.physical)
		who.push_back(PHYSICAL);
	std::vector<std::vector<double>> t(who.size());
	cudaEvent_t start, stop;
	CUDA(cudaEventCreate(&start));
	CUDA(cudaEventCreate(&stop));
	for (int r = -1; r < rounds; r++) { /* round -1 warms up */
		for (size_t j = 0; j < who.size(); j++) {
			int w = who[(j + (r < 0 ? 0 : r)) % who.size()];
			CUDA(cudaDeviceSynchronize());
			CUDA(cudaMemsetAsync(flush, r & 0xff, flush_bytes));
			if (w != COPY)
				b.poison();
			CUDA(cudaEventRecord(start));
			if (w == COPY)
				CUDA(cudaMemcpyAsync(dst, src, copy_bytes, cudaMemcpyDeviceToDevice));
			else if (w == PHYSICAL)
				cudalings_physical_launch(&b.c, b.dev);
			else
				e.check->launch(e.variants[w].fn, &b.c, b.dev);
			CUDA(cudaEventRecord(stop));
			CUDA(cudaGetLastError());
			CUDA(cudaEventSynchronize(stop));
			float ms;
			CUDA(cudaEventElapsedTime(&ms, start, stop));
			if (r >= 0)
				t[(size_t)(std::find(who.begin(), who.end(), w) - who.begin())].push_back(ms * 1e3);
		}
	}
	cudaEventDestroy(start);
	cudaEventDestroy(stop);
	cudaFree(src);
	cudaFree(dst);
	double physical_us = median(t.back()); /* cuBLAS where there is one, else the copy */
	double reference_us = median(t[0]);
	for (size_t j = 0; j < who.size(); j++) {
		int w = who[j];
		row x;
		x.flop_bound = e.physical;
		x.copy = w == COPY;
		x.exercise = e.name;
		x.shape = shape_name(e, s);
		x.variant = w == COPY ? "device-to-device copy" : w == PHYSICAL ? "cuBLAS SGEMM (FP32)" : e.variants[w].label;
		x.us = median(t[j]);
		x.lo = *std::min_element(t[j].begin(), t[j].end());
		x.hi = *std::max_element(t[j].begin(), t[j].end());
		x.gbps = bytes / x.us / 1e3;
		x.tflops = flops / x.us / 1e6;
		x.pct = 100 * physical_us / x.us;
		x.ratio = x.us / reference_us;
		rows.push_back(x);
		printf("  %-16s %-14s %-28s %10.1f us  %7.0f GB/s  %6.2f TFLOP/s  %5.1f%% of physical  %5.2fx ref\n",
		       x.exercise.c_str(), x.shape.c_str(), x.variant.c_str(), x.us, x.gbps, x.tflops, x.pct, x.ratio);
		fflush(stdout);
	}
}

/* The variant labelled `label` alone, launched twice (the first warms up), for a profiler to watch. */
static void
launch_only(const exercise &e, const shape &s, const char *label)
{
	buffers b(e, s);
	for (const variant &v : e.variants) {
		if (strcmp(v.label, label))
			continue;
		for (int i = 0; i < 2; i++) {
			b.poison();
			e.check->launch(v.fn, &b.c, b.dev);
			CUDA(cudaGetLastError());
			CUDA(cudaDeviceSynchronize());
		}
		printf("launched %s %s %.0f bytes\n", e.name, label, e.check->bytes(&b.c));
	}
}

int
main(int argc, char **argv)
{
	int rounds = 30;
	const char *only = NULL;
	bool skip_check = false;
	const char *launch = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
			rounds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else if (!strcmp(argv[i], "--skip-check"))
			skip_check = true;
		else if (!strcmp(argv[i], "--launch") && i + 1 < argc)
			launch = argv[++i];
		else {
			fprintf(stderr, "usage: gold_bench [--rounds N] [--only NAME[,NAME…]] [--skip-check] [--launch LABEL]\n");
			return 2;
		}
	}
	std::vector<exercise> plan = make_plan();
	cudaDeviceProp p;
	int device = 0;
	CUDA(cudaGetDevice(&device));
	CUDA(cudaGetDeviceProperties(&p, device));
	time_t now = time(NULL);
	char date[32];
	strftime(date, sizeof(date), "%Y-%m-%d", gmtime(&now));
	printf("gold_bench on %s (%d SMs, %d MB L2), %s, %d rounds\n", p.name, p.multiProcessorCount,
	       p.l2CacheSize >> 20, date, rounds);
	size_t flush_bytes = std::max((size_t)2 * p.l2CacheSize, (size_t)256 << 20);
	void *flush;
	CUDA(cudaMalloc(&flush, flush_bytes));

	for (const exercise &e : plan) {
		if (only && !strstr((std::string(",") + only + ",").c_str(), (std::string(",") + e.name + ",").c_str()))
			continue;
		if (!skip_check) {
			std::vector<shape> all = e.cases;
			all.insert(all.end(), e.timed.begin(), e.timed.end());
			for (const shape &s : all) {
				buffers b(e, s);
				expected x;
				compute_expected(e, b, x);
				for (const variant &v : e.variants)
					verify(e, v, b, x);
			}
			printf("%s: checked %zu launchers at %zu sizes\n", e.name, e.variants.size(), all.size());
		}
		for (const shape &s : e.timed) {
			if (launch)
				launch_only(e, s, launch);
			else
				time_shape(e, s, rounds, flush, flush_bytes);
		}
	}
	if (launch)
		return failures ? 1 : 0;

	printf("\n## gold_bench on %s, %s\n\n", p.name, date);
	printf("Median of %d rounds, each from a flushed L2 with poisoned outputs, all variants in the same rounds.\n"
	       "GB/s counts the fewest bytes the kernel must move (harness/checks); %% of the physical reference = its "
	       "time / this time.\n\n", rounds);
	printf("| exercise | size | variant | µs | GB/s | TFLOP/s | %% of physical | × reference |\n");
	printf("|---|---|---|---:|---:|---:|---:|---:|\n");
	for (const row &x : rows) {
		char tflops[32] = "";
		if (x.flop_bound && x.copy)
			continue;
		if (x.flop_bound)
			snprintf(tflops, sizeof(tflops), "%.1f", x.tflops);
		printf("| %s | %s | %s | %.1f | %.0f | %s | %.1f | %.2f |\n", x.exercise.c_str(), x.shape.c_str(),
		       x.variant.c_str(), x.us, x.gbps, tflops, x.pct, x.ratio);
	}
	printf("\n%d wrong results\n", failures);
	return failures ? 1 : 0;
}
