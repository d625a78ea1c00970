// Kernels that go wrong, for the simulator's error reports. Comments of the
// form "MARK:name" label lines that the tests expect in a report.
#include <cuda_runtime.h>
#include <assert.h>
#include <stdlib.h>

#include "kernels.h"

static int
finish(void)
{
	cudaError_t err = cudaDeviceSynchronize();

	return err ? err : cudaGetLastError();
}

// ---------------------------------------------------------------- divergence and deadlock

__global__ void divergent_kernel(int *out)
{
	if (threadIdx.x < 16)
		__syncthreads();	// MARK:first_barrier
	else
		__syncthreads();	// MARK:second_barrier
	out[threadIdx.x] = 1;
}

extern "C" int
sim_divergent_sites(void)
{
	int *d;

	cudaMalloc(&d, 64 * sizeof(int));
	divergent_kernel<<<2, 64>>>(d);
	return finish();
}

// Threads past n return before the barrier: exited threads count as arrived (PTX's exit).
__global__ void early_exit_kernel(float *out, int n, int *counted)
{
	__shared__ float s[64];
	int i = threadIdx.x;

	if (i >= n)
		return;
	s[i] = 1.0f + i;
	int live = __syncthreads_count(1);
	out[i] = s[n - 1 - i];
	if (i == 0)
		*counted = live;
}

extern "C" int
sim_early_exit(float *first, float *last, int *counted)
{
	float *d;
	int *c;

	cudaMalloc(&d, 64 * sizeof(float));
	cudaMalloc(&c, sizeof(int));
	early_exit_kernel<<<1, 64>>>(d, 40, c);
	int err = finish();
	cudaMemcpy(first, d, sizeof(float), cudaMemcpyDeviceToHost);
	cudaMemcpy(last, d + 39, sizeof(float), cudaMemcpyDeviceToHost);
	cudaMemcpy(counted, c, sizeof(int), cudaMemcpyDeviceToHost);
	return err;
}

// The tree's barrier inside the if: threads that waited there once go on past it to the end.
__global__ void left_behind_kernel(float *out)
{
	__shared__ float s[64];

	s[threadIdx.x] = 1.0f;
	__syncthreads();
	for (unsigned stride = 32; stride > 0; stride /= 2)
		if (threadIdx.x < stride) {
			s[threadIdx.x] += s[threadIdx.x + stride];
			__syncthreads();	// MARK:barrier_in_if
		}
	if (threadIdx.x == 0)
		*out = s[0];
}

extern "C" int
sim_barrier_left_behind(void)
{
	float *d;

	cudaMalloc(&d, sizeof(float));
	left_behind_kernel<<<1, 64>>>(d);
	return finish();
}

__global__ void warp_deadlock_kernel(int *out)
{
	if (threadIdx.x % 32 < 16)
		__syncwarp();		// every lane is in the mask, half never come
	else
		__syncthreads();
	out[threadIdx.x] = 1;
}

extern "C" int
sim_warp_deadlock(void)
{
	int *d;

	cudaMalloc(&d, 32 * sizeof(int));
	warp_deadlock_kernel<<<1, 32>>>(d);
	return finish();
}

__global__ void shfl_exited_kernel(int *out)
{
	if (threadIdx.x >= 8)
		return;
	out[threadIdx.x] = __shfl_down_sync(0xffffffffu, (int)threadIdx.x, 1);
}

extern "C" int
sim_shfl_exited(void)
{
	int *d;

	cudaMalloc(&d, 32 * sizeof(int));
	shfl_exited_kernel<<<1, 32>>>(d);
	return finish();
}

// ---------------------------------------------------------------- launch limits

__global__ void empty_kernel(void)
{
}

extern "C" int
sim_launch_config(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
		  unsigned long smem)
{
	empty_kernel<<<dim3(gx, gy, gz), dim3(bx, by, bz), smem>>>();
	return cudaGetLastError();
}

__global__ void static_smem_kernel(float *out)
{
	__shared__ float big[10240];	// 40 KiB

	big[threadIdx.x] = 1.0f;
	out[threadIdx.x] = big[threadIdx.x];
}

extern "C" int
sim_static_smem(unsigned long dyn)
{
	float *d;

	cudaMalloc(&d, sizeof(float));
	static_smem_kernel<<<1, 1, dyn>>>(d);
	return finish();
}

__global__ void opt_in_kernel(float *out, int n)
{
	extern __shared__ float big_dyn[];

	for (int i = threadIdx.x; i < n; i += blockDim.x)
		big_dyn[i] = (float)i;
	__syncthreads();
	out[threadIdx.x] = big_dyn[n - 1 - threadIdx.x];
}

extern "C" int
sim_opt_in(int bytes)
{
	float *d;
	cudaError_t err;

	cudaMalloc(&d, 32 * sizeof(float));
	err = cudaFuncSetAttribute(opt_in_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
	if (err)
		return err;
	opt_in_kernel<<<1, 32, bytes>>>(d, bytes / 4);
	return finish();
}

// ---------------------------------------------------------------- faults

__global__ void out_of_bounds_kernel(float *a, int n, int past)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (blockIdx.x == 3 && threadIdx.x == 5)
		a[n + past] = 1.0f;	// MARK:oob
	else if (i < n)
		a[i] = 2.0f;
}

extern "C" int
sim_out_of_bounds(int past_end)
{
	float *d;

	cudaMalloc(&d, 1024 * sizeof(float));
	out_of_bounds_kernel<<<8, 128>>>(d, 1024, past_end);
	return finish();
}

__global__ void null_kernel(int *p)
{
	p[threadIdx.x] = 1;		// MARK:null
}

extern "C" int
sim_null_write(void)
{
	null_kernel<<<1, 4>>>(NULL);
	return finish();
}

__global__ void divide_kernel(int *out, int by)
{
	out[threadIdx.x] = 100 / (by - (int)threadIdx.x);	// MARK:divide
}

extern "C" int
sim_divide(int by)
{
	int *d;

	cudaMalloc(&d, 32 * sizeof(int));
	divide_kernel<<<1, 32>>>(d, by);
	return finish();
}

__device__ int deep(int n, volatile char *sink)
{
	volatile char frame[1024];

	frame[0] = (char)n;
	sink[0] = frame[0];
	return n <= 0 ? frame[0] : deep(n - 1, sink) + frame[0];
}

__global__ void deep_stack_kernel(char *sink, int n)
{
	sink[1] = (char)deep(n, sink);
}

extern "C" int
sim_deep_stack(void)
{
	char *d;

	cudaMalloc(&d, 16);
	deep_stack_kernel<<<1, 2>>>(d, 1 << 20);
	return finish();
}

__global__ void spin_kernel(volatile int *flag)
{
	while (*flag == 0)	// MARK:spin
		;
}

extern "C" int
sim_spin(void)
{
	int *d;

	cudaMalloc(&d, sizeof(int));
	cudaMemset(d, 0, sizeof(int));
	spin_kernel<<<1, 1>>>(d);
	return finish();
}

__global__ void assert_kernel(int ok)
{
	assert(ok || threadIdx.x != 2);
}

extern "C" int
sim_assert(int ok)
{
	assert_kernel<<<1, 4>>>(ok);
	return finish();
}

// ---------------------------------------------------------------- order dependence

#define TILE 16

// The lesson's tile transpose; without the barrier a thread reads tile
// entries that other threads of its block have not written yet.
__global__ void transpose_kernel(const float *in, float *out, int n, int with_barrier)
{
	__shared__ float tile[TILE][TILE + 1];
	int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;

	if (x < n && y < n)
		tile[threadIdx.y][threadIdx.x] = in[y * n + x];
	if (with_barrier)
		__syncthreads();
	x = blockIdx.y * TILE + threadIdx.x;
	y = blockIdx.x * TILE + threadIdx.y;
	if (x < n && y < n)
		out[y * n + x] = tile[threadIdx.x][threadIdx.y];	// MARK:transpose_write
}

extern "C" int
sim_missing_barrier(int with_barrier)
{
	const int n = 40;
	float h[n * n], back[n * n], *din, *dout;
	int wrong = 0;

	for (int i = 0; i < n * n; i++)
		h[i] = (float)i;
	cudaMalloc(&din, sizeof(h));
	cudaMalloc(&dout, sizeof(h));
	cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
	transpose_kernel<<<dim3((n + TILE - 1) / TILE, (n + TILE - 1) / TILE), dim3(TILE, TILE)>>>(
		din, dout, n, with_barrier);
	if (cudaGetLastError())
		return finish();
	cudaMemcpy(back, dout, sizeof(h), cudaMemcpyDeviceToHost);
	for (int r = 0; r < n; r++)
		for (int c = 0; c < n; c++)
			wrong += back[c * n + r] != h[r * n + c];
	return wrong ? -wrong : finish();
}

// Each block reads what the block before it wrote: fine in one order of the blocks only.
__global__ void chain_kernel(int *a)
{
	if (threadIdx.x == 0)
		a[blockIdx.x + 1] = a[blockIdx.x] + 1;	// MARK:chain_write
}

extern "C" int
sim_race_between_blocks(void)
{
	int *d;

	cudaMalloc(&d, 65 * sizeof(int));
	cudaMemset(d, 0, 65 * sizeof(int));
	chain_kernel<<<64, 32>>>(d);
	return finish();
}

// Every block stores its index into one word: whichever block runs last wins.
__global__ void last_block_wins_kernel(int *a)
{
	if (threadIdx.x == 0)
		a[0] = (int)blockIdx.x;	// MARK:last_wins_write
}

extern "C" int
sim_blocks_write_one_word(void)
{
	int *d;

	cudaMalloc(&d, sizeof(int));
	last_block_wins_kernel<<<8, 32>>>(d);
	return finish();
}

template <int THREADS>
__global__ void __launch_bounds__(THREADS, 2) bounded_kernel(int *a)
{
	a[threadIdx.x] = 1;
}

extern "C" int
sim_launch_bounds(unsigned threads)
{
	int *d;

	cudaMalloc(&d, 1024 * sizeof(int));
	bounded_kernel<128><<<1, threads>>>(d);
	return finish();
}

// Two threads of one block store different values into one word.
__global__ void two_threads_kernel(int *a)
{
	a[threadIdx.x / 2] = (int)threadIdx.x;	// MARK:two_threads_write
}

extern "C" int
sim_threads_write_one_word(void)
{
	int *d;

	cudaMalloc(&d, 16 * sizeof(int));
	two_threads_kernel<<<1, 32>>>(d);
	return finish();
}

// ---------------------------------------------------------------- runtime misuse

extern "C" int
sim_memcpy_swapped(void)
{
	float h[4] = { 0 }, *d;

	cudaMalloc(&d, sizeof(h));
	return cudaMemcpy(h, d, sizeof(h), cudaMemcpyHostToDevice);	// dst is host memory
}

extern "C" int
sim_double_free(void)
{
	float *d;

	cudaMalloc(&d, 16);
	cudaFree(d);
	return cudaFree(d);
}

__global__ void forgot_smem_kernel(float *out)
{
	extern __shared__ float forgot[];

	forgot[threadIdx.x] = 1.0f;	// MARK:forgot_smem
	__syncthreads();
	out[threadIdx.x] = forgot[threadIdx.x];
}

extern "C" int
sim_forgot_smem(void)
{
	float *d;

	cudaMalloc(&d, 32 * sizeof(float));
	forgot_smem_kernel<<<1, 32>>>(d);
	return finish();
}

// The pre-Volta warp-synchronous reduction: the last 32 threads add through
// volatile shared memory without __syncwarp(), a race on today's GPUs.
__global__ void legacy_reduce_kernel(const float *in, float *out)
{
	__shared__ float s[64];
	int t = threadIdx.x;

	s[t] = in[blockIdx.x * 64 + t];
	__syncthreads();
	if (t < 32) {
		volatile float *vs = s;

		vs[t] += vs[t + 32];
		vs[t] += vs[t + 16];
		vs[t] += vs[t + 8];
		vs[t] += vs[t + 4];
		vs[t] += vs[t + 2];
		vs[t] += vs[t + 1];
	}
	if (t == 0)
		atomicAdd(out, s[0]);	// MARK:legacy_atomic
}

extern "C" int
sim_legacy_reduce(void)
{
	float h[256], *din, *dout;

	for (int i = 0; i < 256; i++)
		h[i] = (float)(i % 10);
	cudaMalloc(&din, sizeof(h));
	cudaMalloc(&dout, sizeof(float));
	cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
	cudaMemset(dout, 0, sizeof(float));
	legacy_reduce_kernel<<<4, 64>>>(din, dout);
	return finish();
}

__constant__ float table[4];

__global__ void scale_kernel(const float *in, float *out, const float *factors)
{
	out[threadIdx.x] = in[threadIdx.x] * factors[threadIdx.x % 4];
}

// which: 0 all device memory, 1 the host array as input, 2 a __constant__ array's address
extern "C" int
sim_host_pointer(int which)
{
	static const float one[4] = { 1, 1, 1, 1 };
	float *h = (float *)malloc(32 * sizeof(float)), *din, *dout, *factors;
	int err;

	cudaMalloc(&din, 32 * sizeof(float));
	cudaMalloc(&dout, 32 * sizeof(float));
	cudaMalloc(&factors, 4 * sizeof(float));
	cudaMemcpy(factors, one, sizeof(one), cudaMemcpyHostToDevice);
	cudaMemcpyToSymbol(table, one, sizeof(one));
	if (which == 2)
		cudaGetSymbolAddress((void **)&factors, table);
	scale_kernel<<<1, 32>>>(which == 1 ? h : din, dout, factors);
	err = finish();
	free(h);
	return err;
}

__global__ void abort_kernel(void)
{
	if (threadIdx.x == 1)
		abort();	// MARK:abort
}

extern "C" int
sim_abort(void)
{
	abort_kernel<<<1, 4>>>();
	return finish();
}
