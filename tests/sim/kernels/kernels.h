/* The kernels of the simulator's tests, run end to end; each returns the CUDA error. */
#ifndef TESTS_SIM_KERNELS_H
#define TESTS_SIM_KERNELS_H

#ifdef __cplusplus
extern "C" {
#endif

struct atomic_results {
	int add, sub, max, min;
	unsigned long long ull;
	unsigned uadd, bits, wrap;
	int cas, exch;
};

int sim_reverse(const float *in, float *out, int n, int blocks);
int sim_rotate(int *out, int threads, int blocks, int rounds);
int sim_index(int *out, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz);
int sim_unwritten(float *out, int blocks);
int sim_dynamic(float *out, int n);
int sim_atomics(struct atomic_results *out, float *fsum, double *dsum, float *big, int *counter,
		int blocks, int threads);
int sim_symbol_memset(int *counter, int *past_end);
int sim_histogram(const int *in, int n, unsigned *bins);
int sim_counts(int *out, int threads, int modulus);
int sim_shuffle(const int *in, int *out, int threads);
int sim_block_sum(const float *in, int n, float *out);
int sim_shared_atomic_col_sums(const float *a, int rows, int cols, float *sums);
int sim_hello(void);
int sim_intrinsics(float *f, int *i);
int sim_barrier_loop(int blocks, int threads, int rounds, double *seconds);
int sim_fill(unsigned long bytes, unsigned *last);
/* cudaFuncGetAttributes' maxThreadsPerBlock and cudaOccupancyMaxPotentialBlockSize's block for a kernel of
   __launch_bounds__(96, 2) that has not run yet */
int sim_bounds_known(int *max_threads, int *block);
/* maxThreadsPerBlock before any launch of bounded_t<128>, bounded_t<1024> (bounded at B > 512 ? 512 : B),
   the two overloads of bounded_o (64 and 32), and cudaOccupancyMaxPotentialBlockSize's block for
   bounded_t<16>; its block for a kernel whose bound the rewriter cannot register, and the error of that
   kernel's launch with that block */
int sim_bounds_of_instances(int bounds[5], int *unknown_block, int *unknown_launch);
/* cudaOccupancyMaxPotentialBlockSizeVariableSMem's blocks, where a block past 256 threads needs 120 KB of
   shared memory: for a kernel of no bound (256), and for bounded_t<128> (128) */
int sim_block_by_smem(int *unbounded, int *bounded);
/* CUB's block reductions (a sum, a sum of the first 50, a max) of 1 … 96 over a 16 × 6 block, and the sums of
   the first 10 lanes of each logical warp of 16 */
#define SIM_CUB_OUT 9
int sim_cub(int *out);
/* libcu++'s cuda::ceil_div(a, b) */
long long sim_ceil_div(long long a, int b);
/* 3 blocks of 32 threads each add (1, 2, 3, 4) to a float4 and (0.5, -1) to a float2 with atomicAdd */
int sim_vector_atomics(float *four, float *two);
/* __byte_perm, the funnel shifts and __brevll on fixed operands (tests/sim/libraries.c has a GPU's answers) */
int sim_bit_intrinsics(unsigned *out, unsigned long long *wide);
/* seven values of __fns (libraries.cu says which) */
void sim_fns(unsigned *out);
/* ten values of CUDA's math functions that C lacks (libraries.cu says which) */
void sim_more_math(float *out);
/* CUDART_PI_F, CUDART_INF_F, CUDART_NAN_F, CUDART_SQRT_HALF_F; CUDART_PI, CUDART_INF, CUDART_LN2 (math_constants.h) */
int sim_math_constants(float *f, double *d);
/* 3 blocks of 64 threads: a __shared__ cuda::atomic<int> counts the block's threads, thread 0 of each adds the
   count into ints[0] through a cuda::atomic_ref; ints[1] the largest thread index (fetch_max), ints[2] the
   least of -threadIdx.x (fetch_min), ints[3] 7 by compare_exchange_strong from 0; *f 0.5 a thread through a
   cuda::std::atomic_ref<float> */
int sim_libcu_atomics(int *ints, float *f);
/* 64 threads: in copied into shared memory by cuda::memcpy_async into a cuda::barrier, out[t] = in[63 - t];
   then each thread's element by a thread's cuda::pipeline, out[64 + t] = in[(t + 1) % 64] */
int sim_libcu_copies(const int *in, int *out);
/* 256 ints loaded by cub::BlockLoad's algorithms and written back blocked, 7 x 256 of them (libraries.cu) */
int sim_cub_loads(const int *in, int *out);
/* a cuda::std::span of n ints given to a kernel: its size, front, back, sums of subspan(2, 3) and last(2), first<4>()'s size */
int sim_spans(const int *in, int n, int *out);
/* A cooperative launch (plain 1: <<<>>>; 2: cudaLaunchKernel; 3: cudaLaunchKernelEx, cooperative; 4: cudaLaunchKernel of a void *;
   5: cudaLaunchKernelExC, cooperative) whose blocks pass their values around a ring, a grid.sync() apart. */
int sim_grid_rotate(int *out, int blocks, int threads, int rounds, int plain);
int sim_halves(int *out);
struct cudasimStats;
int sim_measured(int kind, int stride, struct cudasimStats *stats);
int sim_tile_measured(int pad, struct cudasimStats *stats);

/* errors.cu */
int sim_divergent_sites(void);
int sim_early_exit(float *first, float *last, int *counted);
int sim_barrier_left_behind(void);
int sim_warp_deadlock(void);
int sim_shfl_exited(void);
int sim_launch_config(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
		      unsigned long smem);
int sim_static_smem(unsigned long dyn);
int sim_opt_in(int bytes);
int sim_out_of_bounds(int past_end);
int sim_null_write(void);
int sim_divide(int by);
int sim_deep_stack(void);
int sim_missing_barrier(int with_barrier);
int sim_race_between_blocks(void);
int sim_blocks_write_one_word(void);
int sim_blocks_update_one_word(int how);
int sim_threads_write_one_word(void);
int sim_launch_bounds(unsigned threads);
int sim_spin(void);
int sim_assert(int ok);
int sim_memcpy_swapped(void);
int sim_double_free(void);
int sim_forgot_smem(void);
int sim_legacy_reduce(void);
int sim_host_pointer(int which);
int sim_abort(void);

/* checked.cu: compiled with the checks; each fills *out from cudasimTakeChecks */
struct cudasimChecks;
int sim_checked_guard_le(int n, struct cudasimChecks *out, unsigned long *alloc);
/* 64 threads each store with atomicExch and with GNU's __atomic_store_n */
int sim_checked_atomic_stores(struct cudasimChecks *out);
int sim_checked_wrapped_index(struct cudasimChecks *out);
int sim_checked_tree(int with_barrier, struct cudasimChecks *out);
/* which: 0 a tile whose halo nobody loads, 1 a counter of shared atomics, 2 a flag threads set to one value,
   3 the flag each thread sets to its own */
int sim_checked_shared(int which, struct cudasimChecks *out);
int sim_checked_transpose(int pad, struct cudasimChecks *out);
/* -(2 * (2 * 5)), through __device__ pointers to __device__ functions, checked */
int sim_checked_device_function_pointers(int *value);
int sim_checked_host_memory(int which);
int sim_checked_reachable(float *first);
int sim_checked_skips_barrier(void);

/* tricky.cu */
int sim_tricky(char *text, int size, int *values);
/* 0 + 1 + ... + 31 + 100, through two __shared__ variables of a struct type defined in their declaration */
int sim_shared_struct(int *value);

#ifdef __cplusplus
}
#endif
#endif
