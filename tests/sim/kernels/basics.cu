// Kernels for the simulator's unit tests (tests/sim/semantics.c): barriers,
// shared memory, atomics, warp functions. Each extern "C" function runs one
// kernel end to end and returns the CUDA error, so the tests stay in C.
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include "kernels.h"

// ---------------------------------------------------------------- barriers

// Reverse n floats through shared memory: wrong without the barrier.
__global__ void reverse_kernel(const float *in, float *out, int n)
{
	__shared__ float buf[1024];
	int t = threadIdx.x;

	buf[t] = in[blockIdx.x * n + t];
	__syncthreads();
	out[blockIdx.x * n + t] = buf[n - 1 - t];
}

// Rotates values around the block `rounds` times, one barrier pair per round.
__global__ void rotate_kernel(int *out, int rounds)
{
	__shared__ int ring[256];
	int t = threadIdx.x, n = blockDim.x, v = t;

	for (int r = 0; r < rounds; r++) {
		ring[t] = v;
		__syncthreads();
		v = ring[(t + 1) % n];
		__syncthreads();
	}
	out[blockIdx.x * n + t] = v;
}

extern "C" int
sim_reverse(const float *in, float *out, int n, int blocks)
{
	float *din, *dout;
	size_t bytes = (size_t)n * blocks * sizeof(float);

	cudaMalloc(&din, bytes);
	cudaMalloc(&dout, bytes);
	cudaMemcpy(din, in, bytes, cudaMemcpyHostToDevice);
	reverse_kernel<<<blocks, n>>>(din, dout, n);
	cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
	cudaFree(din);
	cudaFree(dout);
	return cudaGetLastError();
}

extern "C" int
sim_rotate(int *out, int threads, int blocks, int rounds)
{
	int *d;

	cudaMalloc(&d, sizeof(int) * threads * blocks);
	rotate_kernel<<<blocks, threads>>>(d, rounds);
	cudaMemcpy(out, d, sizeof(int) * threads * blocks, cudaMemcpyDeviceToHost);
	cudaFree(d);
	return cudaGetLastError();
}

// Every thread writes its own linear index from threadIdx, blockIdx and the dims.
__global__ void index_kernel(int *out)
{
	int tid = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
	int bid = blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y;
	int per = blockDim.x * blockDim.y * blockDim.z;

	out[bid * per + tid] = bid * 100000 + tid;
}

extern "C" int
sim_index(int *out, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz)
{
	int *d;
	size_t n = (size_t)gx * gy * gz * bx * by * bz;

	cudaMalloc(&d, n * sizeof(int));
	index_kernel<<<dim3(gx, gy, gz), dim3(bx, by, bz)>>>(d);
	cudaMemcpy(out, d, n * sizeof(int), cudaMemcpyDeviceToHost);
	cudaFree(d);
	return cudaGetLastError();
}

// ---------------------------------------------------------------- shared memory

// Reads shared memory that no thread wrote (thread 0 of block 1 and later
// blocks too: block 0's writes must not leak into them).
__global__ void unwritten_kernel(float *out)
{
	__shared__ float s[64];

	if (blockIdx.x == 0)
		s[threadIdx.x] = 1.0f;
	__syncthreads();
	out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x == 0 ? 0.0f : s[threadIdx.x];
}

extern "C" int
sim_unwritten(float *out, int blocks)
{
	float *d;

	cudaMalloc(&d, sizeof(float) * 64 * blocks);
	unwritten_kernel<<<blocks, 64>>>(d);
	cudaMemcpy(out, d, sizeof(float) * 64 * blocks, cudaMemcpyDeviceToHost);
	cudaFree(d);
	return cudaGetLastError();
}

extern __shared__ float dyn_f[];
extern __shared__ int dyn_i[];

// Dynamic shared memory: one arena, two names for it.
__global__ void dynamic_kernel(float *out, int n)
{
	extern __shared__ __align__(16) float local_dyn[];
	int t = threadIdx.x;

	dyn_f[t] = (float)t;
	__syncthreads();
	out[t] = local_dyn[n - 1 - t];
	out[n + t] = (float)(dyn_i[t] == __float_as_int((float)t));
}

extern "C" int
sim_dynamic(float *out, int n)
{
	float *d;

	cudaMalloc(&d, sizeof(float) * 2 * n);
	dynamic_kernel<<<1, n, n * sizeof(float)>>>(d, n);
	cudaMemcpy(out, d, sizeof(float) * 2 * n, cudaMemcpyDeviceToHost);
	cudaFree(d);
	return cudaGetLastError();
}

// ---------------------------------------------------------------- atomics

__device__ int device_counter;

__global__ void atomics_kernel(struct atomic_results *r, float *fsum, double *dsum, float *big)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	atomicAdd(&r->add, 1);
	atomicSub(&r->sub, 2);
	atomicMax(&r->max, i);
	atomicMin(&r->min, -i);
	atomicAdd(&r->ull, 3ull);
	atomicAdd(&r->uadd, 1u);
	atomicOr(&r->bits, 1u << (i % 32));
	atomicInc(&r->wrap, 9u);
	atomicAdd(fsum, 1.0f);
	atomicAdd(dsum, 0.5);
	// a float sum whose rounding depends on the order of the additions
	atomicAdd(big, 1000.0f + 0.001f * (float)i);
	atomicAdd(&device_counter, 1);
	// a lock-free increment through atomicCAS
	int old = r->cas, seen;
	do {
		seen = old;
		old = atomicCAS(&r->cas, seen, seen + 1);
	} while (old != seen);
	atomicExch(&r->exch, i);
}

extern "C" int
sim_atomics(struct atomic_results *out, float *fsum, double *dsum, float *big, int *counter,
	    int blocks, int threads)
{
	struct atomic_results *d, init;
	float *df, *db;
	double *dd;
	int zero = 0;

	memset(&init, 0, sizeof(init));
	init.max = -1;
	cudaMalloc(&d, sizeof(*d));
	cudaMalloc(&df, sizeof(float));
	cudaMalloc(&db, sizeof(float));
	cudaMalloc(&dd, sizeof(double));
	cudaMemcpy(d, &init, sizeof(init), cudaMemcpyHostToDevice);
	cudaMemset(df, 0, sizeof(float));
	cudaMemset(db, 0, sizeof(float));
	cudaMemset(dd, 0, sizeof(double));
	cudaMemcpyToSymbol(device_counter, &zero, sizeof(int));
	atomics_kernel<<<blocks, threads>>>(d, df, dd, db);
	cudaMemcpy(out, d, sizeof(*out), cudaMemcpyDeviceToHost);
	cudaMemcpy(fsum, df, sizeof(float), cudaMemcpyDeviceToHost);
	cudaMemcpy(big, db, sizeof(float), cudaMemcpyDeviceToHost);
	cudaMemcpy(dsum, dd, sizeof(double), cudaMemcpyDeviceToHost);
	cudaMemcpyFromSymbol(counter, device_counter, sizeof(int));
	cudaFree(d);
	cudaFree(df);
	cudaFree(db);
	cudaFree(dd);
	return cudaGetLastError();
}

// A __device__ variable's address from cudaGetSymbolAddress is device memory to cudaMemset, as on a GPU (a
// counter reset before each launch); a memset past the end of the __device__ variables is an invalid value.
extern "C" int
sim_symbol_memset(int *counter, int *past_end)
{
	int *d = NULL;

	cudaGetSymbolAddress((void **)&d, device_counter);
	int err = cudaMemsetAsync(d, 1, sizeof(int));
	if (err)
		return err;
	cudaMemcpyFromSymbol(counter, device_counter, sizeof(int));
	*past_end = cudaMemset(d, 0, 1u << 30);
	cudaGetLastError();
	return cudaGetLastError();
}

// Per-block histogram in shared memory, then merged into global memory.
__global__ void histogram_kernel(const int *in, int n, unsigned *bins)
{
	__shared__ unsigned local[16];
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (threadIdx.x < 16)
		local[threadIdx.x] = 0;
	__syncthreads();
	if (i < n)
		atomicAdd(&local[in[i] & 15], 1u);
	__syncthreads();
	if (threadIdx.x < 16)
		atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

extern "C" int
sim_histogram(const int *in, int n, unsigned *bins)
{
	int *din;
	unsigned *dbins;

	cudaMalloc(&din, n * sizeof(int));
	cudaMalloc(&dbins, 16 * sizeof(unsigned));
	cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice);
	cudaMemset(dbins, 0, 16 * sizeof(unsigned));
	histogram_kernel<<<(n + 127) / 128, 128>>>(din, n, dbins);
	cudaMemcpy(bins, dbins, 16 * sizeof(unsigned), cudaMemcpyDeviceToHost);
	cudaFree(din);
	cudaFree(dbins);
	return cudaGetLastError();
}

// ---------------------------------------------------------------- barrier votes

__global__ void counts_kernel(int *out, int modulus)
{
	int t = threadIdx.x;

	out[t * 3] = __syncthreads_count(t % modulus == 0);
	out[t * 3 + 1] = __syncthreads_and(t % modulus == 0);
	out[t * 3 + 2] = __syncthreads_or(t == (int)blockDim.x - 1);
}

extern "C" int
sim_counts(int *out, int threads, int modulus)
{
	int *d;

	cudaMalloc(&d, 3 * threads * sizeof(int));
	counts_kernel<<<1, threads>>>(d, modulus);
	cudaMemcpy(out, d, 3 * threads * sizeof(int), cudaMemcpyDeviceToHost);
	cudaFree(d);
	return cudaGetLastError();
}

// ---------------------------------------------------------------- warp functions

__global__ void shuffle_kernel(const int *in, int *out)
{
	int t = threadIdx.x, lane = t % 32, v = in[t], sum = v, scan = v;
	const unsigned all = 0xffffffffu;

	for (int d = 16; d > 0; d /= 2)
		sum += __shfl_down_sync(all, sum, d);
	for (int d = 1; d < 32; d *= 2) {
		int up = __shfl_up_sync(all, scan, d);

		if (lane >= d)
			scan += up;
	}
	int butterfly = v;
	for (int m = 16; m > 0; m /= 2)
		butterfly += __shfl_xor_sync(all, butterfly, m);
	out[t * 8 + 0] = sum;				/* lane 0: the warp's sum */
	out[t * 8 + 1] = scan;				/* inclusive prefix sum */
	out[t * 8 + 2] = butterfly;			/* every lane: the warp's sum */
	out[t * 8 + 3] = __shfl_sync(all, v, 3);	/* lane 3's value */
	out[t * 8 + 4] = __shfl_sync(all, v, 0, 16);	/* lane 0 or 16 of each half */
	out[t * 8 + 5] = (int)__ballot_sync(all, v % 2 == 0);
	out[t * 8 + 6] = __any_sync(all, v == 7) | __all_sync(all, v >= 0) << 1;
	out[t * 8 + 7] = __float_as_int(__shfl_xor_sync(all, (float)v * 0.5f, 1));
}

extern "C" int
sim_shuffle(const int *in, int *out, int threads)
{
	int *din, *dout;

	cudaMalloc(&din, threads * sizeof(int));
	cudaMalloc(&dout, 8 * threads * sizeof(int));
	cudaMemcpy(din, in, threads * sizeof(int), cudaMemcpyHostToDevice);
	shuffle_kernel<<<1, threads>>>(din, dout);
	cudaMemcpy(out, dout, 8 * threads * sizeof(int), cudaMemcpyDeviceToHost);
	cudaFree(din);
	cudaFree(dout);
	return cudaGetLastError();
}

// A block-wide sum: warp shuffles, then one value per warp through shared memory.
__global__ void block_sum_kernel(const float *in, float *out, int n)
{
	__shared__ float partial[32];
	int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	float v = i < n ? in[i] : 0.0f;

	for (int d = 16; d > 0; d >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, d);
	if (lane == 0)
		partial[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = lane < (int)(blockDim.x / 32) ? partial[lane] : 0.0f;
		for (int d = 16; d > 0; d >>= 1)
			v += __shfl_down_sync(0xffffffffu, v, d);
		if (lane == 0)
			atomicAdd(out, v);
	}
}

extern "C" int
sim_block_sum(const float *in, int n, float *out)
{
	float *din, *dout;

	cudaMalloc(&din, n * sizeof(float));
	cudaMalloc(&dout, sizeof(float));
	cudaMemcpy(din, in, n * sizeof(float), cudaMemcpyHostToDevice);
	cudaMemset(dout, 0, sizeof(float));
	block_sum_kernel<<<(n + 255) / 256, 256>>>(din, dout, n);
	cudaMemcpy(out, dout, sizeof(float), cudaMemcpyDeviceToHost);
	cudaFree(din);
	cudaFree(dout);
	return cudaGetLastError();
}

// Column sums of 8 groups of rows that meet in shared memory through atomicAdd, stored with a plain store:
// the stored word's rounding follows the order of the adds, on a GPU as in the check's second run.
__global__ void shared_atomic_col_sums_kernel(const float *a, float *sums, int rows, int cols)
{
	__shared__ float acc[32];
	int col = blockIdx.x * 32 + threadIdx.x;

	if (threadIdx.y == 0)
		acc[threadIdx.x] = 0.0f;
	__syncthreads();
	if (col < cols) {
		float s = 0.0f;
		for (int r = threadIdx.y; r < rows; r += 8)
			s += a[r * cols + col];
		atomicAdd(&acc[threadIdx.x], s);
	}
	__syncthreads();
	if (threadIdx.y == 0 && col < cols)
		sums[col] = acc[threadIdx.x];
}

extern "C" int
sim_shared_atomic_col_sums(const float *a, int rows, int cols, float *sums)
{
	float *da, *ds;

	cudaMalloc(&da, rows * cols * sizeof(float));
	cudaMalloc(&ds, cols * sizeof(float));
	cudaMemcpy(da, a, rows * cols * sizeof(float), cudaMemcpyHostToDevice);
	shared_atomic_col_sums_kernel<<<(cols + 31) / 32, dim3(32, 8)>>>(da, ds, rows, cols);
	cudaMemcpy(sums, ds, cols * sizeof(float), cudaMemcpyDeviceToHost);
	cudaFree(da);
	cudaFree(ds);
	return cudaGetLastError();
}

// ---------------------------------------------------------------- printf and intrinsics

__global__ void hello_kernel(void)
{
	if (threadIdx.x % 2 == 0)
		printf("hello from thread %d of block %d\n", threadIdx.x, blockIdx.x);
}

extern "C" int
sim_hello(void)
{
	printf("before\n");
	hello_kernel<<<2, 4>>>();
	cudaDeviceSynchronize();
	printf("after\n");
	fflush(stdout);
	return cudaGetLastError();
}

__global__ void intrinsics_kernel(float *f, int *i)
{
	f[0] = __fdividef(1.0f, 4.0f);
	f[1] = rsqrtf(16.0f);
	f[2] = fminf(2.0f, -3.0f);
	f[3] = min(2.5f, 1.5f);
	f[4] = __expf(0.0f);
	f[5] = __ldg(&f[1]);
	f[6] = __int_as_float(0x3f800000);
	f[7] = __saturatef(3.0f);
	i[0] = min(3, -4);
	i[1] = max(7u, 9u);
	i[2] = __float2int_rn(2.5f);
	i[3] = __float2int_rn(3.5f);
	i[4] = __float_as_int(1.0f);
	i[5] = __popc(0xf0f0u);
	i[6] = __clz(1);
	i[7] = __ffs(8);
}

extern "C" int
sim_intrinsics(float *f, int *i)
{
	float *df;
	int *di;

	cudaMalloc(&df, 8 * sizeof(float));
	cudaMalloc(&di, 8 * sizeof(int));
	cudaMemset(df, 0, 8 * sizeof(float));
	intrinsics_kernel<<<1, 1>>>(df, di);
	cudaMemcpy(f, df, 8 * sizeof(float), cudaMemcpyDeviceToHost);
	cudaMemcpy(i, di, 8 * sizeof(int), cudaMemcpyDeviceToHost);
	cudaFree(df);
	cudaFree(di);
	return cudaGetLastError();
}

// ---------------------------------------------------------------- speed

__global__ void barrier_loop_kernel(int *out, int rounds)
{
	int acc = 0;

	for (int r = 0; r < rounds; r++) {
		acc += r;
		__syncthreads();
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

extern "C" int
sim_barrier_loop(int blocks, int threads, int rounds, double *seconds)
{
	int *d;
	cudaEvent_t a, b;
	float ms = 0;

	cudaMalloc(&d, sizeof(int) * blocks * threads);
	cudaEventCreate(&a);
	cudaEventCreate(&b);
	cudaEventRecord(a);
	barrier_loop_kernel<<<blocks, threads>>>(d, rounds);
	cudaEventRecord(b);
	cudaEventSynchronize(b);
	cudaEventElapsedTime(&ms, a, b);
	*seconds = ms / 1e3;
	cudaFree(d);
	return cudaGetLastError();
}

// ---------------------------------------------------------------- big memory

__global__ void fill_kernel(unsigned *p, size_t n)
{
	for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		p[i] = (unsigned)i;
}

extern "C" int
sim_fill(unsigned long bytes, unsigned *last)
{
	unsigned *d;
	size_t n = bytes / sizeof(unsigned);
	cudaError_t err = cudaMalloc(&d, bytes);

	if (err)
		return err;
	fill_kernel<<<8, 128>>>(d, n);
	cudaMemcpy(last, d + n - 1, sizeof(*last), cudaMemcpyDeviceToHost);
	cudaFree(d);
	return cudaGetLastError();
}

// The two halves of each warp take different branches, each with its own
// mask: two groups of the same warp wait in warp functions at once.
__global__ void halves_kernel(int *out)
{
	int lane = threadIdx.x % 32, v = lane;

	if (lane < 16)
		v += __shfl_down_sync(0x0000ffffu, v, 1, 16);
	else
		v += __shfl_up_sync(0xffff0000u, v, 1, 16);
	out[threadIdx.x] = v;
}

extern "C" int
sim_halves(int *out)
{
	int *d;

	cudaMalloc(&d, 64 * sizeof(int));
	halves_kernel<<<1, 64>>>(d);
	cudaMemcpy(out, d, 64 * sizeof(int), cudaMemcpyDeviceToHost);
	cudaFree(d);
	return cudaGetLastError();
}

// ---------------------------------------------------------------- memory access measurement

__global__ void strided_copy_kernel(const float *in, float *out, int stride)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	out[i] = in[i * stride];
}

__global__ void bank_kernel(float *out, int stride)
{
	extern __shared__ float banked[];

	banked[threadIdx.x * stride] = (float)threadIdx.x;
	__syncthreads();
	out[threadIdx.x] = banked[threadIdx.x * stride];
}

// kind 0: a copy reading with a stride; kind 1: shared memory with a stride
extern "C" int
sim_measured(int kind, int stride, struct cudasimStats *stats)
{
	float *in, *out;
	cudaError_t err;

	cudaMalloc(&in, 64 * 33 * sizeof(float));
	cudaMalloc(&out, 64 * sizeof(float));
	cudaMemset(in, 0, 64 * 33 * sizeof(float));
	cudasimMeasure(1);
	if (kind == 0)
		strided_copy_kernel<<<2, 32>>>(in, out, stride);
	else
		bank_kernel<<<1, 32, 32 * 33 * sizeof(float)>>>(out, stride);
	err = cudaGetLastError();
	cudasimMeasure(0);
	cudasimLastLaunchStats(stats);
	cudaFree(in);
	cudaFree(out);
	return err;
}

// The lesson's tile transpose with a 32x32 tile (reads down a column: 32-way
// bank conflicts) or a 32x33 one (conflict-free).
template <int PAD>
__global__ void tile_kernel(const float *in, float *out)
{
	__shared__ float tile[32][32 + PAD];

	tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
	__syncthreads();
	out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

extern "C" int
sim_tile_measured(int pad, struct cudasimStats *stats)
{
	float *in, *out;
	cudaError_t err;

	cudaMalloc(&in, 32 * 32 * sizeof(float));
	cudaMalloc(&out, 32 * 32 * sizeof(float));
	cudaMemset(in, 0, 32 * 32 * sizeof(float));
	cudasimMeasure(1);
	if (pad)
		tile_kernel<1><<<1, dim3(32, 32)>>>(in, out);
	else
		tile_kernel<0><<<1, dim3(32, 32)>>>(in, out);
	err = cudaGetLastError();
	cudasimMeasure(0);
	cudasimLastLaunchStats(stats);
	cudaFree(in);
	cudaFree(out);
	return err;
}

// ---------------------------------------------------------------- grid-wide sync

#include <cooperative_groups.h>

// Each block writes its rank, waits for the grid, then reads its right-hand
// neighbour's value (written by another block) into shared memory, waits
// again and does it once more: wrong unless every block passed each sync.
__global__ void grid_rotate_kernel(int *ring, int *out, int rounds)
{
	namespace cg = cooperative_groups;
	cg::grid_group grid = cg::this_grid();
	__shared__ int mine;
	unsigned b = blockIdx.x, n = gridDim.x;

	if (threadIdx.x == 0)
		ring[b] = (int)b;
	for (int r = 0; r < rounds; r++) {
		grid.sync();
		if (threadIdx.x == 0)
			mine = ring[(b + 1) % n];
		grid.sync();
		if (threadIdx.x == 0)
			ring[b] = mine;
	}
	grid.sync();
	out[b * blockDim.x + threadIdx.x] = ring[b] + (int)grid.block_rank() * 0;
}

extern "C" int
sim_grid_rotate(int *out, int blocks, int threads, int rounds, int plain)
{
	int *ring, *dout;

	cudaMalloc(&ring, sizeof(int) * blocks);
	cudaMalloc(&dout, sizeof(int) * blocks * threads);
	if (plain == 1) {
		grid_rotate_kernel<<<blocks, threads>>>(ring, dout, rounds);
	} else if (plain == 2) {
		/* by cudaLaunchKernel: a plain launch, whatever door */
		void *args[] = { (void *)&ring, (void *)&dout, (void *)&rounds };
		cudaLaunchKernel((const void *)grid_rotate_kernel, dim3(blocks), dim3(threads), args, 0, 0);
	} else if (plain == 4) {
		/* by a pointer of no type: the simulator cannot know the kernel's parameters */
		const void *untyped = (const void *)grid_rotate_kernel;
		void *args[] = { (void *)&ring, (void *)&dout, (void *)&rounds };
		cudaError_t e = cudaLaunchKernel(untyped, dim3(blocks), dim3(threads), args, 0, 0);
		cudaFree(ring);
		cudaFree(dout);
		return e;
	} else if (plain == 3) {
		/* by cudaLaunchKernelEx with the cooperative attribute; rounds as a long, converted */
		cudaLaunchAttribute attr[1];
		attr[0].id = cudaLaunchAttributeCooperative;
		attr[0].val.cooperative = 1;
		cudaLaunchConfig_t config = {};
		config.gridDim = dim3(blocks);
		config.blockDim = dim3(threads);
		config.attrs = attr;
		config.numAttrs = 1;
		cudaError_t e = cudaLaunchKernelEx(&config, grid_rotate_kernel, ring, dout, (long)rounds);
		if (e != cudaSuccess) {
			cudaFree(ring);
			cudaFree(dout);
			return e;
		}
	} else if (plain == 5) {
		/* by cudaLaunchKernelExC: the configuration's cooperative attribute, an untyped kernel, an array */
		cudaLaunchAttribute attr[1];
		attr[0].id = cudaLaunchAttributeCooperative;
		attr[0].val.cooperative = 1;
		cudaLaunchConfig_t config = {};
		config.gridDim = dim3(blocks);
		config.blockDim = dim3(threads);
		config.attrs = attr;
		config.numAttrs = 1;
		void *args[] = { (void *)&ring, (void *)&dout, (void *)&rounds };
		cudaError_t e = cudaLaunchKernelExC(&config, (const void *)grid_rotate_kernel, args);
		if (e != cudaSuccess) {
			cudaFree(ring);
			cudaFree(dout);
			return e;
		}
	} else {
		void *args[] = { (void *)&ring, (void *)&dout, (void *)&rounds };
		cudaError_t e = cudaLaunchCooperativeKernel((void *)grid_rotate_kernel, dim3(blocks), dim3(threads),
							    args, 0, 0);
		if (e != cudaSuccess) {
			cudaFree(ring);
			cudaFree(dout);
			return e;
		}
	}
	cudaMemcpy(out, dout, sizeof(int) * blocks * threads, cudaMemcpyDeviceToHost);
	cudaFree(ring);
	cudaFree(dout);
	return cudaGetLastError();
}
