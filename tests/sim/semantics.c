/*
 * The simulator's semantics, through kernels built exactly as the grader
 * builds a .cu (tests/sim/kernels, rewritten and compiled by sim/sim.mk).
 * Criterion runs each test in its own process, so a sticky error of one
 * test never reaches another.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <criterion/redirect.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cudasim.h"
#include "sim/fill.h"
#include "tests/sim/kernels/kernels.h"
#include "tests/sim/sim_test.h"
#include "lib/util.h"

#define ERRORS_CU "tests/sim/kernels/errors.cu"

static const char *
detail(void)
{
	return cudasimLastErrorDetail();
}

#define assert_detail_has(s) \
	cr_assert(strstr(detail(), (s)), "the detail lacks \"%s\": %s", (s), detail())

/* ---------------------------------------------------------------- barriers */

Test(barriers, reverse_through_shared_memory, .timeout = 10)
{
	enum { N = 256, BLOCKS = 3 };
	static float in[N * BLOCKS], out[N * BLOCKS];

	for (int i = 0; i < N * BLOCKS; i++)
		in[i] = (float)i;
	cr_assert_eq(sim_reverse(in, out, N, BLOCKS), cudaSuccess, "%s", detail());
	for (int b = 0; b < BLOCKS; b++)
		for (int t = 0; t < N; t++)
			cr_assert_eq(out[b * N + t], in[b * N + N - 1 - t], "block %d thread %d", b, t);
}

Test(grid_sync, blocks_pass_values_around_a_ring, .timeout = 20)
{
	enum { BLOCKS = 4, THREADS = 64, ROUNDS = 3 };
	static int out[BLOCKS * THREADS];

	cr_assert_eq(sim_grid_rotate(out, BLOCKS, THREADS, ROUNDS, 0), cudaSuccess, "%s", detail());
	for (int b = 0; b < BLOCKS; b++)
		for (int t = 0; t < THREADS; t++)
			cr_assert_eq(out[b * THREADS + t], (b + ROUNDS) % BLOCKS, "block %d thread %d", b, t);
}

Test(grid_sync, needs_a_cooperative_launch, .timeout = 20)
{
	static int out[2 * 32];

	cr_assert_eq(sim_grid_rotate(out, 2, 32, 1, 1), cudaErrorLaunchFailure);
	cr_assert(strstr(detail(), "needs a cooperative launch"), "%s", detail());
	cudaDeviceReset();
}

Test(grid_sync, cudaLaunchKernelEx_with_the_cooperative_attribute_is_cooperative, .timeout = 20)
{
	enum { BLOCKS = 3, THREADS = 32, ROUNDS = 2 };
	static int out[BLOCKS * THREADS];

	cr_assert_eq(sim_grid_rotate(out, BLOCKS, THREADS, ROUNDS, 3), cudaSuccess, "%s", detail());
	for (int b = 0; b < BLOCKS; b++)
		cr_assert_eq(out[b * THREADS + 5], (b + ROUNDS) % BLOCKS, "block %d", b);
}

Test(grid_sync, cudaLaunchKernelExC_with_the_cooperative_attribute_is_cooperative, .timeout = 20)
{
	enum { BLOCKS = 3, THREADS = 32, ROUNDS = 2 };
	static int out[BLOCKS * THREADS];

	cr_assert_eq(sim_grid_rotate(out, BLOCKS, THREADS, ROUNDS, 5), cudaSuccess, "%s", detail());
	for (int b = 0; b < BLOCKS; b++)
		cr_assert_eq(out[b * THREADS + 5], (b + ROUNDS) % BLOCKS, "block %d", b);
}

Test(grid_sync, cudaLaunchKernel_is_no_cooperative_launch, .timeout = 20)
{
	static int out[2 * 32];

	cr_assert_eq(sim_grid_rotate(out, 2, 32, 1, 2), cudaErrorLaunchFailure);
	cr_assert(strstr(detail(), "needs a cooperative launch"), "%s", detail());
	cr_assert(strstr(detail(), "grid_rotate_kernel"), "the kernel named: %s", detail());
	cudaDeviceReset();
}

Test(grid_sync, a_kernel_of_no_type_is_said_to_be_beyond_the_simulator, .timeout = 20)
{
	static int out[2 * 32];

	cr_assert_eq(sim_grid_rotate(out, 2, 32, 1, 4), cudaErrorNotSupported);
	cr_assert(strstr(detail(), "the simulator cannot launch"), "%s", detail());
	cudaGetLastError();
}

Test(grid_sync, a_grid_larger_than_the_gpu_holds_is_refused, .timeout = 20)
{
	int sms = 0;
	static int out[1];

	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
	/* 1024-thread blocks: two a multiprocessor */
	cr_assert_eq(sim_grid_rotate(out, 2 * sms + 1, 1024, 1, 0), cudaErrorCooperativeLaunchTooLarge, "%s", detail());
	cr_assert(strstr(detail(), "more than this GPU holds at once"), "%s", detail());
}

Test(barriers, many_barriers_in_a_loop, .timeout = 10)
{
	enum { T = 96, B = 2, ROUNDS = 37 };
	static int out[T * B];

	cr_assert_eq(sim_rotate(out, T, B, ROUNDS), cudaSuccess, "%s", detail());
	for (int i = 0; i < T * B; i++)
		cr_assert_eq(out[i], (i % T + ROUNDS) % T, "thread %d", i);
}

Test(barriers, three_dimensional_indices, .timeout = 10)
{
	unsigned gx = 3, gy = 2, gz = 2, bx = 4, by = 3, bz = 5;
	int per = (int)(bx * by * bz), n = (int)(gx * gy * gz) * per;
	int *out = calloc((size_t)n, sizeof(int));

	cr_assert_eq(sim_index(out, gx, gy, gz, bx, by, bz), cudaSuccess, "%s", detail());
	for (int i = 0; i < n; i++)
		cr_assert_eq(out[i], i / per * 100000 + i % per);
	free(out);
}

/* Speed is bench-sim's to print (bench/sim/RESULTS.md), never a test's to assert: only that many rounds complete. */
Test(barriers, many_rounds_of_barriers_complete, .timeout = 60)
{
	double t;

	setenv("CUDASIM_ORDER_CHECK", "0", 1);
	cr_assert_eq(sim_barrier_loop(64, 256, 200, &t), cudaSuccess, "%s", detail());
	cr_log_info("%.0f barrier crossings in %.3f s", 64.0 * 256 * 200, t);
}

/* ---------------------------------------------------------------- shared memory */

Test(shared, unwritten_reads_as_nan, .timeout = 10)
{
	static float out[64 * 3];

	cr_assert_eq(sim_unwritten(out, 3), cudaSuccess, "%s", detail());
	for (int i = 64; i < 64 * 3; i++)
	{
		uint32_t bits;

		memcpy(&bits, &out[i], sizeof(bits));
		cr_assert_eq(bits, CUDASIM_SHARED_FILL_BITS, "out[%d] = 0x%08x: block %d saw shared memory it never wrote",
			     i, bits, i / 64);
	}
}

Test(shared, dynamic_shared_memory, .timeout = 10)
{
	enum { N = 200 };
	static float out[2 * N];

	cr_assert_eq(sim_dynamic(out, N), cudaSuccess, "%s", detail());
	for (int t = 0; t < N; t++) {
		cr_assert_eq(out[t], (float)(N - 1 - t));
		cr_assert_eq(out[N + t], 1.0f, "extern __shared__ names alias one arena");
	}
}

/* ---------------------------------------------------------------- atomics */

Test(atomics, contention_on_one_word, .timeout = 10)
{
	struct atomic_results r;
	float fsum, big;
	double dsum;
	int counter, blocks = 64, threads = 128, n = blocks * threads;

	cr_assert_eq(sim_atomics(&r, &fsum, &dsum, &big, &counter, blocks, threads), cudaSuccess,
		     "%s", detail());
	cr_assert_eq(r.add, n);
	cr_assert_eq(r.sub, -2 * n);
	cr_assert_eq(r.max, n - 1);
	cr_assert_eq(r.min, -(n - 1));
	cr_assert_eq(r.ull, 3ull * (unsigned long long)n);
	cr_assert_eq(r.uadd, (unsigned)n);
	cr_assert_eq(r.bits, 0xffffffffu);
	cr_assert_eq(r.wrap, (unsigned)(n % 10));
	cr_assert_eq(r.cas, n);
	cr_assert(r.exch >= 0 && r.exch < n);
	cr_assert_eq(fsum, (float)n);
	cr_assert_eq(dsum, 0.5 * n);
	cr_assert_float_eq(big, 1000.0 * n + 0.001 * n * (n - 1) / 2.0, 0.01 * n);
	/* the order check ran the launch twice; the __device__ counter must not show it */
	cr_assert_eq(counter, n, "__device__ counter is %d after %d increments", counter, n);
}

Test(atomics, a_device_variable_is_device_memory_to_memset, .timeout = 10)
{
	int counter = 0, past_end = 0;

	cr_assert_eq(sim_symbol_memset(&counter, &past_end), cudaSuccess, "%s", detail());
	cr_assert_eq(counter, 0x01010101, "%#x", counter);
	cr_assert_eq(past_end, cudaErrorInvalidValue, "a memset of 1 GiB from the variable: %d", past_end);
}

Test(atomics, shared_memory_histogram, .timeout = 10)
{
	enum { N = 5000 };
	static int in[N];
	unsigned bins[16], want[16] = { 0 };

	for (int i = 0; i < N; i++) {
		in[i] = (i * 7919) % 1000;
		want[in[i] & 15]++;
	}
	cr_assert_eq(sim_histogram(in, N, bins), cudaSuccess, "%s", detail());
	for (int b = 0; b < 16; b++)
		cr_assert_eq(bins[b], want[b], "bin %d", b);
}

/* ---------------------------------------------------------------- the __syncthreads_count family */

Test(votes, count_and_or, .timeout = 10)
{
	enum { T = 100 };
	static int out[3 * T];

	cr_assert_eq(sim_counts(out, T, 3), cudaSuccess, "%s", detail());
	for (int t = 0; t < T; t++) {
		cr_assert_eq(out[3 * t], 34, "thread %d: count", t);
		cr_assert_eq(out[3 * t + 1], 0, "thread %d: and", t);
		cr_assert_eq(out[3 * t + 2], 1, "thread %d: or", t);
	}
	cr_assert_eq(sim_counts(out, T, 1), cudaSuccess, "%s", detail());
	cr_assert_eq(out[0], T);
	cr_assert_eq(out[1], 1);
}

/* ---------------------------------------------------------------- warp functions */

Test(warps, shuffles_and_votes, .timeout = 10)
{
	enum { T = 64 };
	static int in[T], out[8 * T];

	for (int i = 0; i < T; i++)
		in[i] = (i * 5 + 3) % 17;
	cr_assert_eq(sim_shuffle(in, out, T), cudaSuccess, "%s", detail());
	for (int w = 0; w < T / 32; w++) {
		int sum = 0, scan = 0;
		unsigned ballot = 0;
		int any7 = 0;

		for (int l = 0; l < 32; l++) {
			sum += in[w * 32 + l];
			ballot |= (unsigned)(in[w * 32 + l] % 2 == 0) << l;
			any7 |= in[w * 32 + l] == 7;
		}
		cr_assert_eq(out[(w * 32) * 8 + 0], sum, "warp %d: shfl_down sum", w);
		for (int l = 0; l < 32; l++) {
			int t = w * 32 + l;
			float half = (float)in[t ^ 1] * 0.5f;
			int half_bits;

			memcpy(&half_bits, &half, 4);
			scan += in[t];
			cr_assert_eq(out[t * 8 + 1], scan, "lane %d: shfl_up scan", t);
			cr_assert_eq(out[t * 8 + 2], sum, "lane %d: shfl_xor butterfly", t);
			cr_assert_eq(out[t * 8 + 3], in[w * 32 + 3], "lane %d: shfl broadcast", t);
			cr_assert_eq(out[t * 8 + 4], in[w * 32 + (l & 16)], "lane %d: width 16", t);
			cr_assert_eq((unsigned)out[t * 8 + 5], ballot, "lane %d: ballot", t);
			cr_assert_eq(out[t * 8 + 6], any7 | 2, "lane %d: any/all", t);
			cr_assert_eq(out[t * 8 + 7], half_bits, "lane %d: float shuffle", t);
		}
	}
}

Test(warps, disjoint_masks_in_two_branches, .timeout = 10)
{
	int out[64];

	cr_assert_eq(sim_halves(out), cudaSuccess, "%s", detail());
	for (int t = 0; t < 64; t++) {
		int lane = t % 32;
		int want = lane < 16 ? lane + (lane + 1 < 16 ? lane + 1 : lane)
				     : lane + (lane - 1 >= 16 ? lane - 1 : lane);

		cr_assert_eq(out[t], want, "thread %d", t);
	}
}

Test(warps, block_sum_with_shuffles_and_float_atomics, .timeout = 10)
{
	enum { N = 10000 };
	static float in[N];
	double want = 0;
	float got;

	for (int i = 0; i < N; i++) {
		in[i] = 1.0f / (float)(i + 1);
		want += in[i];
	}
	/* float atomics add the block sums in another order in the check's second run */
	cr_assert_eq(sim_block_sum(in, N, &got), cudaSuccess, "%s", detail());
	cr_assert_float_eq(got, want, 1e-3);
}

Test(warps, float_atomics_that_cancel_to_zero_are_no_race, .timeout = 10)
{
	enum { N = 20000 };
	static float in[N];
	float got;

	/* the first half's block sums are large and positive, the second half's cancel them:
	   another order rounds differently, by far more than 1e-4 of the near-zero total */
	for (int i = 0; i < N / 2; i++) {
		in[i] = 1000.0f + 1.0f / (float)(i + 3);
		in[N / 2 + i] = -in[i];
	}
	cr_assert_eq(sim_block_sum(in, N, &got), cudaSuccess, "%s", detail());
	cr_assert_float_eq(got, 0.0f, 5.0f);
}

Test(warps, shared_float_atomics_that_cancel_stored_plainly_are_no_race, .timeout = 10)
{
	enum { ROWS = 64, COLS = 40 };
	static float a[ROWS * COLS], sums[COLS];

	/* each column's 8 partial sums are about +-8000 and cancel to near zero: the word stored from the
	   shared total rounds differently in the other order, by far more than 1e-4 of itself */
	for (int r = 0; r < ROWS; r++)
		for (int c = 0; c < COLS; c++)
			a[r * COLS + c] = (r % 8 < 4 ? 1000.0f : -1000.0f) + 1.0f / (float)(r * COLS + c + 3) *
				(r % 8 < 4 ? 1.0f : -1.0f) * (float)(c % 7 + 1);
	cr_assert_eq(sim_shared_atomic_col_sums(a, ROWS, COLS, sums), cudaSuccess, "%s", detail());
	for (int c = 0; c < COLS; c++) {
		double want = 0;
		for (int r = 0; r < ROWS; r++)
			want += a[r * COLS + c];
		cr_assert_float_eq(sums[c], want, 0.01, "column %d: %g, not %g", c, sums[c], want);
	}
}

/* ---------------------------------------------------------------- printf and intrinsics */

Test(printf, device_printf_once_in_order, .init = cr_redirect_stdout, .timeout = 10)
{
	cr_assert_eq(sim_hello(), cudaSuccess, "%s", detail());
	cr_assert_stdout_eq_str("before\n"
				"hello from thread 0 of block 0\n"
				"hello from thread 2 of block 0\n"
				"hello from thread 0 of block 1\n"
				"hello from thread 2 of block 1\n"
				"after\n");
}

Test(intrinsics, values, .timeout = 10)
{
	float f[8];
	int i[8];

	cr_assert_eq(sim_intrinsics(f, i), cudaSuccess, "%s", detail());
	cr_assert_eq(f[0], 0.25f);
	cr_assert_eq(f[1], 0.25f);
	cr_assert_eq(f[2], -3.0f);
	cr_assert_eq(f[3], 1.5f);
	cr_assert_eq(f[4], 1.0f);
	cr_assert_eq(f[5], 0.25f);
	cr_assert_eq(f[6], 1.0f);
	cr_assert_eq(f[7], 1.0f);
	cr_assert_eq(i[0], -4);
	cr_assert_eq(i[1], 9);
	cr_assert_eq(i[2], 2, "round half to even");
	cr_assert_eq(i[3], 4);
	cr_assert_eq(i[4], 0x3f800000);
	cr_assert_eq(i[5], 8);
	cr_assert_eq(i[6], 31);
	cr_assert_eq(i[7], 4);
}

/* ---------------------------------------------------------------- divergence and deadlock */

Test(divergence, different_barriers, .timeout = 10)
{
	cr_assert_eq(sim_divergent_sites(), cudaErrorLaunchFailure);
	assert_detail_has("barrier divergence");
	assert_detail_has("divergent_kernel");
	assert_detail_has("of block (0,0,0)");
	cr_assert(detail_names_mark(ERRORS_CU, "first_barrier"), "%s", detail());
	cr_assert(detail_names_mark(ERRORS_CU, "second_barrier"), "%s", detail());
}

Test(divergence, early_return_before_barrier, .timeout = 10)
{
	float first = 0, last = 0;
	int counted = 0;

	cr_assert_eq(sim_early_exit(&first, &last, &counted), cudaSuccess, "%s", detail());
	cr_assert_eq(first, 40.0f);
	cr_assert_eq(last, 1.0f);
	cr_assert_eq(counted, 40, "__syncthreads_count counts the threads that arrived");
}

Test(divergence, barrier_left_behind, .timeout = 10)
{
	cr_assert_eq(sim_barrier_left_behind(), cudaErrorLaunchFailure);
	assert_detail_has("barrier divergence");
	assert_detail_has("which waited there before, finished the kernel");
	cr_assert(detail_names_mark(ERRORS_CU, "barrier_in_if"), "%s", detail());
}

Test(divergence, warp_and_block_barriers_deadlock, .timeout = 10)
{
	cr_assert_eq(sim_warp_deadlock(), cudaErrorLaunchFailure);
	assert_detail_has("deadlock");
	assert_detail_has("__syncthreads()");
	assert_detail_has("warp function");
}

Test(divergence, shuffle_with_exited_lane, .timeout = 10)
{
	cr_assert_eq(sim_shfl_exited(), cudaErrorLaunchFailure);
	assert_detail_has("__shfl_down_sync");
	assert_detail_has("has already exited");
}

/* ---------------------------------------------------------------- launch limits */

struct config_case {
	unsigned g[3], b[3];
	unsigned long smem;
	int err;
};

static struct config_case config_cases[] = {
	{ { 1, 1, 1 }, { 1024, 1, 1 }, 0, cudaSuccess },
	{ { 1, 1, 1 }, { 1025, 1, 1 }, 0, cudaErrorInvalidConfiguration },
	{ { 1, 1, 1 }, { 32, 32, 2 }, 0, cudaErrorInvalidConfiguration },
	{ { 1, 1, 1 }, { 1, 1, 65 }, 0, cudaErrorInvalidConfiguration },
	{ { 1, 1, 1 }, { 1, 1, 64 }, 0, cudaSuccess },
	{ { 1, 65536, 1 }, { 1, 1, 1 }, 0, cudaErrorInvalidConfiguration },
	{ { 1, 1, 65536 }, { 1, 1, 1 }, 0, cudaErrorInvalidConfiguration },
	{ { 0, 1, 1 }, { 32, 1, 1 }, 0, cudaErrorInvalidConfiguration },
	{ { 1, 1, 1 }, { 0, 1, 1 }, 0, cudaErrorInvalidConfiguration },
	{ { 1, 1, 1 }, { 32, 1, 1 }, 49152, cudaSuccess },
	{ { 1, 1, 1 }, { 32, 1, 1 }, 49153, cudaErrorInvalidValue },
};

ParameterizedTestParameters(limits, launch_configuration)
{
	return cr_make_param_array(struct config_case, config_cases,
				   ARRAY_SIZE(config_cases));
}

ParameterizedTest(struct config_case *c, limits, launch_configuration, .timeout = 10)
{
	int err = sim_launch_config(c->g[0], c->g[1], c->g[2], c->b[0], c->b[1], c->b[2], c->smem);

	cr_assert_eq(err, c->err, "grid (%u,%u,%u) block (%u,%u,%u) smem %lu: %s (%s)",
		     c->g[0], c->g[1], c->g[2], c->b[0], c->b[1], c->b[2], c->smem,
		     cudaGetErrorName(err), detail());
	if (err) {
		assert_detail_has("empty_kernel");
		/* a configuration error is not sticky: the next launch works */
		cr_assert_eq(sim_launch_config(1, 1, 1, 1, 1, 1, 0), cudaSuccess, "%s", detail());
	}
}

Test(limits, static_plus_dynamic_shared_memory, .timeout = 10)
{
	cr_assert_eq(sim_static_smem(4096), cudaSuccess, "%s", detail());
	cr_assert_eq(sim_static_smem(10000), cudaErrorInvalidValue);
	assert_detail_has("shared memory");
}

Test(limits, opt_in_dynamic_shared_memory, .timeout = 10)
{
	cr_assert_eq(sim_opt_in(100000), cudaSuccess, "%s", detail());
	cr_assert_eq(sim_opt_in(232448), cudaSuccess, "%s", detail());
	cr_assert_eq(sim_opt_in(232452), cudaErrorInvalidValue);
}

/* ---------------------------------------------------------------- faults */

Test(faults, write_past_the_end, .timeout = 10)
{
	float *p;

	cr_assert_eq(sim_out_of_bounds(8), cudaErrorIllegalAddress);
	assert_detail_has("thread (5,0,0) of block (3,0,0)");
	assert_detail_has("out_of_bounds_kernel");
	assert_detail_has("past the end of the 4096-byte allocation");
	cr_assert(detail_names_mark(ERRORS_CU, "oob"), "%s", detail());
	/* sticky, like a GPU after an illegal address */
	cr_assert_eq(cudaMalloc((void **)&p, 16), cudaErrorIllegalAddress);
	cr_assert_eq(cudaGetLastError(), cudaErrorIllegalAddress);
	cr_assert_eq(cudaGetLastError(), cudaErrorIllegalAddress);
	cr_assert_eq(cudaDeviceReset(), cudaSuccess);
	cr_assert_eq(cudaMalloc((void **)&p, 16), cudaSuccess);
	cr_assert_str_eq(detail(), "");
}

/* The grader's runner may not start processes: the line must come from inside. */
Test(faults, source_line_without_child_processes, .timeout = 10)
{
	setenv("PATH", "/nonexistent", 1);
	cr_assert_eq(sim_out_of_bounds(8), cudaErrorIllegalAddress);
	cr_assert(detail_names_mark(ERRORS_CU, "oob"), "%s", detail());
}

Test(faults, far_out_of_bounds, .timeout = 10)
{
	cr_assert_eq(sim_out_of_bounds(1 << 26), cudaErrorIllegalAddress);
	cr_assert(detail_names_mark(ERRORS_CU, "oob"), "%s", detail());
}

Test(faults, null_pointer, .timeout = 10)
{
	cr_assert_eq(sim_null_write(), cudaErrorIllegalAddress);
	assert_detail_has("null pointer");
	assert_detail_has("thread (0,0,0) of block (0,0,0)");
	cr_assert(detail_names_mark(ERRORS_CU, "null"), "%s", detail());
}

Test(faults, dynamic_shared_memory_not_asked_for, .timeout = 10)
{
	cr_assert_eq(sim_forgot_smem(), cudaErrorIllegalAddress);
	assert_detail_has("the launch asked for 0 bytes");
	assert_detail_has("third <<<grid, block, bytes>>> argument");
	cr_assert(detail_names_mark(ERRORS_CU, "forgot_smem"), "%s", detail());
}

Test(faults, host_pointer_given_to_a_kernel, .timeout = 10)
{
	cr_assert_eq(sim_host_pointer(0), cudaSuccess, "%s", detail());
	cr_assert_eq(sim_host_pointer(2), cudaSuccess, "a __constant__ array: %s", detail());
	cr_assert_eq(sim_host_pointer(1), cudaErrorIllegalAddress);
	assert_detail_has("argument 1 is");
	assert_detail_has("a host pointer");
	assert_detail_has("scale_kernel");
}

Test(faults, abort_in_a_kernel, .timeout = 10)
{
	cr_assert_eq(sim_abort(), cudaErrorLaunchFailure);
	assert_detail_has("thread (1,0,0) of block (0,0,0) called abort()");
	cr_assert(detail_names_mark(ERRORS_CU, "abort"), "%s", detail());
}

Test(faults, integer_division_by_zero, .timeout = 10)
{
	cr_assert_eq(sim_divide(7), cudaErrorLaunchFailure);
	assert_detail_has("thread (7,0,0)");
	assert_detail_has("divided an integer by zero");
	cr_assert(detail_names_mark(ERRORS_CU, "divide"), "%s", detail());
}

Test(faults, stack_overflow, .timeout = 10)
{
	cr_assert_eq(sim_deep_stack(), cudaErrorIllegalAddress);
	assert_detail_has("overflowed its stack");
}

Test(faults, endless_loop_times_out, .timeout = 60)
{
	setenv("CUDASIM_TIMEOUT", "0.5", 1);
	cr_assert_eq(sim_spin(), cudaErrorLaunchTimeout);
	assert_detail_has("still running");
	cr_assert(detail_names_mark(ERRORS_CU, "spin"), "%s", detail());
}

Test(faults, device_assert, .timeout = 10)
{
	cr_assert_eq(sim_assert(1), cudaSuccess, "%s", detail());
	cr_assert_eq(sim_assert(0), cudaErrorAssert);
	assert_detail_has("thread (2,0,0) of block (0,0,0)");
	assert_detail_has("ok || threadIdx.x != 2");
}

/* ---------------------------------------------------------------- order dependence */

Test(order, missing_barrier_is_reported, .timeout = 10)
{
	cr_assert_eq(sim_missing_barrier(0), cudaErrorLaunchFailure);
	assert_detail_has("depends on the order in which threads run");
	assert_detail_has("is a __syncthreads() missing?");
	assert_detail_has("transpose_kernel");
	assert_detail_has("of block (");
	assert_detail_has("written last by thread (");
	cr_assert(detail_names_mark(ERRORS_CU, "transpose_write"), "%s", detail());
}

Test(order, barrier_present_passes, .timeout = 10)
{
	cr_assert_eq(sim_missing_barrier(1), cudaSuccess, "%s", detail());
}

Test(order, warp_synchronous_reduction_without_syncwarp, .timeout = 10)
{
	cr_assert_eq(sim_legacy_reduce(), cudaErrorLaunchFailure);
	assert_detail_has("depends on the order in which threads run");
	/* the write is inside atomicAdd, inlined from cudasim.h: the kernel's line is named */
	cr_assert(detail_names_mark(ERRORS_CU, "legacy_atomic"), "%s", detail());
	cr_assert_eq(strstr(detail(), "cudasim.h"), NULL, "%s", detail());
}

Test(order, blocks_that_wait_for_each_other, .timeout = 10)
{
	cr_assert_eq(sim_race_between_blocks(), cudaErrorLaunchFailure);
	assert_detail_has("depends on the order in which blocks run");
	assert_detail_has("written last by thread (0,0,0) of block (");
	cr_assert(detail_names_mark(ERRORS_CU, "chain_write"), "%s", detail());
}

Test(order, two_blocks_writing_one_word_are_named, .timeout = 10)
{
	cr_assert_eq(sim_blocks_write_one_word(), cudaErrorLaunchFailure);
	assert_detail_has("two blocks write the same word");
	assert_detail_has("of block (7,0,0)");
	assert_detail_has("of block (0,0,0)");
	cr_assert(detail_names_mark(ERRORS_CU, "last_wins_write"), "%s", detail());
	cr_assert_eq(strstr(detail(), "does a block read"), NULL, "%s", detail());
}

Test(order, blocks_updating_one_word_are_named, .timeout = 10)
{
	/* both orders add up alike: the word's writer and reader blocks tell */
	cr_assert_eq(sim_blocks_update_one_word(0), cudaErrorLaunchFailure);
	assert_detail_has("two blocks update the same word with a plain read-modify-write");
	assert_detail_has("block (1,0,0) read the word at byte 0");
	assert_detail_has("which block (0,0,0) wrote earlier");
	assert_detail_has("float element 0");
	cr_assert(detail_names_mark("tests/sim/kernels/checked.cu", "plain_update"), "%s", detail());
}

Test(order, blocks_updating_one_device_variable_are_named, .timeout = 10)
{
	cr_assert_eq(sim_blocks_update_one_word(3), cudaErrorLaunchFailure);
	assert_detail_has("plain read-modify-write");
	assert_detail_has("byte 0 of the __device__ variable dev_total");
	cr_assert(detail_names_mark("tests/sim/kernels/checked.cu", "plain_device_update"), "%s", detail());
}

Test(order, a_fence_without_an_atomic_publishes_nothing, .timeout = 10)
{
	cr_assert_eq(sim_blocks_update_one_word(4), cudaErrorLaunchFailure);
	assert_detail_has("plain read-modify-write");
	cr_assert(detail_names_mark("tests/sim/kernels/checked.cu", "fenced_update"), "%s", detail());
}

Test(order, published_updates_are_not_cross_block, .timeout = 10)
{
	/* a lock; the last block finishing in place */
	for (int how = 1; how <= 2; how++)
		cr_assert_eq(sim_blocks_update_one_word(how), cudaSuccess, "way %d: %s", how, detail());
}

Test(order, two_threads_writing_one_word_are_named, .timeout = 10)
{
	cr_assert_eq(sim_threads_write_one_word(), cudaErrorLaunchFailure);
	assert_detail_has("two threads of block (0,0,0) write the same word");
	cr_assert(detail_names_mark(ERRORS_CU, "two_threads_write"), "%s", detail());
	cr_assert_eq(strstr(detail(), "__syncthreads() missing"), NULL, "%s", detail());
}

Test(errors, launch_bounds_exceeded, .timeout = 10)
{
	cr_assert_eq(sim_launch_bounds(128), cudaSuccess, "%s", detail());
	cr_assert_eq(sim_launch_bounds(256), cudaErrorLaunchOutOfResources);
	assert_detail_has("256 threads per block, but 'bounded_kernel' declares __launch_bounds__(128)");
}

Test(errors, index_wrapped_below_zero_is_far_out_of_bounds, .timeout = 10)
{
	struct cudasimChecks checks;

	cr_assert_eq(sim_checked_wrapped_index(&checks), cudaErrorIllegalAddress);
	assert_detail_has("far out of bounds");
	assert_detail_has("that is element -3 taken as unsigned");
	cr_assert_eq(strstr(detail(), "host memory"), NULL, "%s", detail());
}

Test(order, no_room_for_the_check_runs_once, .timeout = 10)
{
	/* 100 MiB more address space: 48 MiB of device memory fit, two shadow copies do not */
	unsigned long pages = 0, in_use;
	unsigned last = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	struct rlimit as;

	cr_assert(f && fscanf(f, "%lu", &pages) == 1);
	fclose(f);
	in_use = pages * (unsigned long)sysconf(_SC_PAGESIZE);
	as.rlim_cur = as.rlim_max = in_use + (100ul << 20);
	cr_assert_eq(setrlimit(RLIMIT_AS, &as), 0);
	cr_assert_eq(sim_fill(48ul << 20, &last), cudaSuccess, "%s", detail());
	cr_assert_eq(last, (48u << 20) / 4 - 1);
}

Test(order, check_can_be_turned_off, .timeout = 10)
{
	setenv("CUDASIM_ORDER_CHECK", "0", 1);
	/* forward order happens to work: without the check the bug goes unseen */
	cr_assert_eq(sim_race_between_blocks(), cudaSuccess, "%s", detail());
}

/* ---------------------------------------------------------------- the runtime */

Test(runtime, memcpy_direction_and_double_free, .timeout = 10)
{
	cr_assert_eq(sim_memcpy_swapped(), cudaErrorInvalidValue);
	assert_detail_has("not device memory");
	cr_assert_eq(cudaGetLastError(), cudaErrorInvalidValue);
	cr_assert_eq(cudaGetLastError(), cudaSuccess, "not sticky");
	cr_assert_eq(sim_double_free(), cudaErrorInvalidValue);
}

Test(runtime, device_properties, .timeout = 10)
{
	struct cudaDeviceProp p;
	int v, n;

	cr_assert_eq(cudaGetDeviceCount(&n), cudaSuccess);
	cr_assert_eq(n, 1);
	cr_assert_eq(cudaGetDeviceProperties(&p, 0), cudaSuccess);
	cr_assert_str_eq(p.name, "cudalings CPU simulator");
	cr_assert_eq(p.maxThreadsPerBlock, 1024);
	cr_assert_eq(p.sharedMemPerBlock, 49152);
	cr_assert_eq(p.sharedMemPerBlockOptin, 232448);
	cr_assert_eq(p.warpSize, 32);
	cr_assert_eq(p.major, 9);
	cr_assert_gt(p.multiProcessorCount, 0);
	cr_assert_eq(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0), cudaSuccess);
	cr_assert_eq(v, 232448);
	cr_assert_eq(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, 0), cudaSuccess);
	cr_assert_gt(v, 0);
	cr_assert_eq(cudaDeviceGetAttribute(&v, cudaDevAttrGlobalMemoryBusWidth, 0), cudaSuccess);
	cr_assert_gt(v, 0);
	cr_assert_eq(cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, 0), cudaSuccess);
	cr_assert_eq(v, p.l2CacheSize);
	cr_assert_eq(cudaSetDevice(1), cudaErrorInvalidDevice);
}

Test(runtime, a_careful_launchers_other_queries, .timeout = 10)
{
	enum cudaSharedMemConfig bank = cudaSharedMemBankSizeDefault;
	unsigned flags = 99;
	int v = -1;
	static float rows[4][16];
	float *d;

	/* deprecated or idle on one device of compute capability 9, but declared, and answered as a GPU does */
	cr_assert_eq(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte), cudaSuccess);
	cr_assert_eq(cudaDeviceGetSharedMemConfig(&bank), cudaSuccess);
	cr_assert_eq(bank, cudaSharedMemBankSizeFourByte);
	cr_assert_eq(cudaFuncSetSharedMemConfig((const void *)sim_hello, cudaSharedMemBankSizeFourByte), cudaSuccess);
	cr_assert_eq(cudaGetDeviceFlags(&flags), cudaSuccess);
	cr_assert_eq(flags & cudaDeviceScheduleBlockingSync, 0u);
	cr_assert_eq(cudaDeviceCanAccessPeer(&v, 0, 0), cudaSuccess);
	cr_assert_eq(v, 0);
	cr_assert_eq(cudaStreamGetPriority(0, &v), cudaSuccess);
	cr_assert_eq(v, 0);
	cr_assert_eq(cudaStreamGetFlags(0, &flags), cudaSuccess);
	cr_assert_eq(flags, (unsigned)cudaStreamDefault);
	cr_assert_eq(cudaProfilerStart(), cudaSuccess);
	cr_assert_eq(cudaProfilerStop(), cudaSuccess);
	/* cudaMemset2D: the first 8 floats of each of 4 rows of 16 */
	cr_assert_eq(cudaMalloc((void **)&d, sizeof(rows)), cudaSuccess);
	cr_assert_eq(cudaMemset(d, 0xff, sizeof(rows)), cudaSuccess);
	cr_assert_eq(cudaMemset2DAsync(d, sizeof(rows[0]), 0, 8 * sizeof(float), 4, 0), cudaSuccess);
	cr_assert_eq(cudaMemcpy(rows, d, sizeof(rows), cudaMemcpyDeviceToHost), cudaSuccess);
	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 16; c++)
			cr_assert_eq(rows[r][c] == 0.0f, c < 8, "row %d column %d: %g", r, c, rows[r][c]);
	cr_assert_eq(cudaMemset2D(d, sizeof(rows[0]), 0, sizeof(rows[0]), 5), cudaErrorInvalidValue,
		     "a fifth row, past the allocation");
	cr_assert_eq(cudaFree(d), cudaSuccess);
}

Test(runtime, error_names_and_values, .timeout = 10)
{
	cr_assert_eq(cudaSuccess, 0);
	cr_assert_eq(cudaErrorInvalidValue, 1);
	cr_assert_eq(cudaErrorMemoryAllocation, 2);
	cr_assert_eq(cudaErrorInvalidConfiguration, 9);
	cr_assert_eq(cudaErrorIllegalAddress, 700);
	cr_assert_eq(cudaErrorLaunchOutOfResources, 701);
	cr_assert_eq(cudaErrorLaunchFailure, 719);
	cr_assert_str_eq(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress");
	cr_assert_str_eq(cudaGetErrorString(cudaErrorIllegalAddress),
			 "an illegal memory access was encountered");
	cr_assert_str_eq(cudaGetErrorString(cudaErrorInvalidConfiguration),
			 "invalid configuration argument");
}

Test(runtime, streams_and_events, .timeout = 10)
{
	cudaStream_t s;
	cudaEvent_t a, b;
	float ms = -1;
	int *d, h = 0;

	cr_assert_eq(cudaStreamCreate(&s), cudaSuccess);
	cr_assert_eq(cudaEventCreate(&a), cudaSuccess);
	cr_assert_eq(cudaEventCreate(&b), cudaSuccess);
	cr_assert_eq(cudaEventRecord(a, s), cudaSuccess);
	cr_assert_eq(cudaMalloc((void **)&d, sizeof(int)), cudaSuccess);
	cr_assert_eq(cudaMemsetAsync(d, 0x01, sizeof(int), s), cudaSuccess);
	cr_assert_eq(cudaMemcpyAsync(&h, d, sizeof(int), cudaMemcpyDefault, s), cudaSuccess);
	cr_assert_eq(cudaEventRecord(b, s), cudaSuccess);
	cr_assert_eq(cudaStreamSynchronize(s), cudaSuccess);
	cr_assert_eq(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
	cr_assert_geq(ms, 0.0f);
	cr_assert_eq(h, 0x01010101);
	cr_assert_eq(cudaStreamDestroy(s), cudaSuccess);
	cr_assert_eq(cudaStreamSynchronize(s), cudaErrorInvalidResourceHandle);
}

Test(runtime, pitch_and_occupancy, .timeout = 10)
{
	void *p;
	size_t pitch;
	int blocks, grid, size;

	cr_assert_eq(cudaMallocPitch(&p, &pitch, 100, 3), cudaSuccess);
	cr_assert_eq(pitch, 512);
	cr_assert_eq(cudaMemset(p, 0, pitch * 3), cudaSuccess);
	cr_assert_eq(cudaMemset(p, 0, pitch * 3 + 1), cudaErrorInvalidValue, "past the end");
	cr_assert_eq(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, p, 256, 0), cudaSuccess);
	cr_assert_eq(blocks, 8, "2048 threads per multiprocessor");
	cr_assert_eq(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, p, 1024, 100000), cudaSuccess);
	cr_assert_eq(blocks, 2, "shared memory allows two blocks");
	cr_assert_eq(cudaOccupancyMaxPotentialBlockSize_impl(&grid, &size, 0, 0), cudaSuccess);
	cr_assert_eq(size % 32, 0);
	cr_assert_gt(grid, 0);
}

/* ---------------------------------------------------------------- measuring memory accesses */

Test(measure, sectors_per_request, .timeout = 10)
{
	struct cudasimStats st;

	cr_assert_eq(sim_measured(0, 1, &st), cudaSuccess, "%s", detail());
	cr_assert(st.measured);
	cr_assert_eq(st.global_load_requests, 1, "one warp, one load");
	cr_assert_eq(st.global_load_sectors, 4, "32 neighbouring floats: 4 sectors");
	cr_assert_eq(st.global_store_sectors, 4);
	cr_assert_eq(sim_measured(0, 8, &st), cudaSuccess, "%s", detail());
	cr_assert_eq(st.global_load_sectors, 32, "floats 32 bytes apart: a sector each");
	cr_assert_eq(st.global_store_sectors, 4);
}

Test(measure, bank_conflicts, .timeout = 10)
{
	struct cudasimStats st;
	static const int strides[] = { 1, 2, 32, 33 }, ways[] = { 1, 2, 32, 1 };

	for (int i = 0; i < 4; i++) {
		cr_assert_eq(sim_measured(1, strides[i], &st), cudaSuccess, "%s", detail());
		cr_assert(st.measured);
		cr_assert_eq(st.shared_requests, 2, "a store and a load");
		cr_assert_eq(st.shared_wavefronts, 2u * ways[i], "stride %d: %d-way", strides[i], ways[i]);
	}
}

Test(measure, static_tile_bank_conflicts, .timeout = 10)
{
	struct cudasimStats st;

	/* 32 warps, each one store to the tile and one load from it */
	cr_assert_eq(sim_tile_measured(0, &st), cudaSuccess, "%s", detail());
	cr_assert_eq(st.shared_requests, 64);
	cr_assert_eq(st.shared_wavefronts, 32 * 1 + 32 * 32, "32x32: the column reads are 32-way");
	cr_assert_eq(sim_tile_measured(1, &st), cudaSuccess, "%s", detail());
	cr_assert_eq(st.shared_wavefronts, 64, "32x33: no conflicts");
	cr_assert_eq(st.global_load_sectors, 32 * 4);
	cr_assert_eq(st.global_store_sectors, 32 * 4);
}

Test(measure, measuring_changes_nothing, .timeout = 10)
{
	struct atomic_results r;
	float fsum, big;
	double dsum;
	int counter;

	cudasimMeasure(1);
	cr_assert_eq(sim_atomics(&r, &fsum, &dsum, &big, &counter, 4, 64), cudaSuccess, "%s", detail());
	cr_assert_eq(r.add, 256, "the measured re-run of block 0 must be undone");
	cr_assert_eq(counter, 256);
}

/* ---------------------------------------------------------------- checks (check.c) */

static const struct cudasimFinding *
found(const struct cudasimChecks *c, int kind)
{
	for (int i = 0; i < c->nfindings; i++)
		if (c->findings[i].kind == kind)
			return &c->findings[i];
	return NULL;
}

Test(checks, one_past_the_end_in_the_rounding_is_out_of_bounds, .timeout = 10)
{
	struct cudasimChecks c;
	unsigned long base;

	/* 1023 floats end inside the allocation's rounding to 256 bytes: nothing faults */
	cr_assert_eq(sim_checked_guard_le(1023, &c, &base), cudaSuccess, "%s", detail());
	const struct cudasimFinding *f = found(&c, CUDASIM_OUT_OF_BOUNDS);
	cr_assert_not_null(f);
	cr_assert(f->write);
	cr_assert_eq((unsigned long)f->addr, base + 1023 * sizeof(float));
	cr_assert_eq(f->thread.x, 1023 % 64);
	cr_assert_eq(f->block.x, 1023 / 64);
	cr_assert(strstr(f->where, "checked.cu:19"), "the line of out[i] = 1.0f: %s", f->where);
	cr_assert_eq(c.global_stores, 1024);
}

Test(checks, atomics_are_requests, .timeout = 10)
{
	struct cudasimChecks c;

	cr_assert_eq(sim_checked_atomic_stores(&c), cudaSuccess, "%s", detail());
	cr_assert_eq(c.global_stores, 128, "64 atomicExch and 64 __atomic_store_n: %llu stores",
		     (unsigned long long)c.global_stores);
	cr_assert_eq(c.nfindings, 0, "an atomic is no race");
}

Test(checks, a_tree_without_barriers_races, .timeout = 10)
{
	struct cudasimChecks c;

	sim_checked_tree(0, &c);
	const struct cudasimFinding *f = found(&c, CUDASIM_RACE);
	cr_assert_not_null(f, "the store of partial[t] += … after its load must be seen");
	cr_assert(f->shared);
	cr_assert(strstr(f->where, "checked.cu:") && strstr(f->other_where, "checked.cu:"));
	cr_assert_neq(f->thread.x, f->other_thread.x);
}

Test(checks, a_tree_with_a_barrier_per_step_does_not_race, .timeout = 10)
{
	struct cudasimChecks c;

	cr_assert_eq(sim_checked_tree(1, &c), cudaSuccess, "%s", detail());
	cr_assert_eq(c.nfindings, 0);
}

Test(checks, an_unloaded_halo_is_uninitialized, .timeout = 10)
{
	struct cudasimChecks c;

	cr_assert_eq(sim_checked_shared(0, &c), cudaSuccess, "%s", detail());
	const struct cudasimFinding *f = found(&c, CUDASIM_UNINITIALIZED);
	cr_assert_not_null(f);
	cr_assert_eq(f->count, 2, "tile[0] and tile[33]");
	cr_assert_null(found(&c, CUDASIM_RACE));
}

Test(checks, atomics_are_no_race, .timeout = 10)
{
	struct cudasimChecks c;

	cr_assert_eq(sim_checked_shared(1, &c), cudaSuccess, "%s", detail());
	cr_assert_eq(c.nfindings, 0);
}

Test(checks, threads_that_write_one_value_to_a_word_do_not_race, .timeout = 10)
{
	struct cudasimChecks c;

	cr_assert_eq(sim_checked_shared(2, &c), cudaSuccess, "%s", detail());
	cr_assert_eq(c.nfindings, 0, "a flag set to 1 by 22 threads");
	cr_assert_eq(sim_checked_shared(3, &c), cudaSuccess, "%s", detail());
	const struct cudasimFinding *f = found(&c, CUDASIM_RACE);
	cr_assert_not_null(f, "each thread its own value: judged at the barrier, though nobody read it before");
	cr_assert(f->write && f->other_write);
	cr_assert_neq(f->thread.x, f->other_thread.x);
	cr_assert(strstr(f->where, "checked.cu:") && strstr(f->other_where, "checked.cu:"));
}

Test(checks, the_tile_transposes_bank_conflicts_and_sectors, .timeout = 20)
{
	struct cudasimChecks c;

	cr_assert_eq(sim_checked_transpose(0, &c), cudaSuccess, "%s", detail());
	/* per block: 32 stores of a row (1 wavefront), 32 loads of a column (32) */
	cr_assert_eq(c.stats.shared_requests, 16 * 64);
	cr_assert_eq(c.stats.shared_wavefronts, 16 * (32 + 32 * 32));
	cr_assert_eq(c.stats.global_load_sectors, 4 * c.stats.global_load_requests);
	cr_assert_eq(c.stats.global_store_sectors, 4 * c.stats.global_store_requests);
	cr_assert(strstr(c.shared_where, "checked.cu:"), "the costliest line: %s", c.shared_where);

	cr_assert_eq(sim_checked_transpose(1, &c), cudaSuccess, "%s", detail());
	cr_assert_eq(c.stats.shared_wavefronts, c.stats.shared_requests, "32x33 has no conflict");
	cr_assert_eq(c.shared_excess, 0);
}

Test(checks, a_kernel_that_reads_host_memory_faults, .timeout = 10)
{
	cr_assert_eq(sim_checked_host_memory(0), cudaErrorIllegalAddress, "a malloc'd block");
	assert_detail_has("read host memory at");
	assert_detail_has("checked.cu:");
	cr_assert_eq(sim_checked_host_memory(1), cudaErrorIllegalAddress, "a host global");
	assert_detail_has("on a GPU this is an illegal address");
}

Test(checks, what_a_kernel_may_read_besides_allocations, .timeout = 10)
{
	float first = 0;

	cr_assert_eq(sim_checked_reachable(&first), cudaSuccess, "%s", detail());
	cr_assert_eq(first, 1.0f + 10 + 100 + 'a' * 0.5f);
}

Test(checks, a_thread_that_skipped_a_barrier_and_went_on_diverges, .timeout = 10)
{
	cr_assert_eq(sim_checked_skips_barrier(), cudaErrorLaunchFailure);
	assert_detail_has("barrier divergence");
	assert_detail_has("(it went on past it)");
}
