// Sources that a naive <<< >>> rewriter gets wrong; tests/sim/rewrite.c
// checks what this computes. The line marked line_probe is one whose number the
// test expects back from __LINE__.
#include <cuda_runtime.h>
#include <stdio.h>

#include "kernels.h"

namespace ns {
template <typename T, int N>
__global__ void fill(T *out, T v)
{
	out[threadIdx.x] = v + (T)N;
}
}

template <typename T>
__global__ void deduce(T *out, T v)
{
	out[threadIdx.x] = v;
}

struct pair { int a, b; };

__global__ void by_value(int *out, pair p)
{
	out[0] = p.a * 10 + p.b;
}

// A __shared__ array inside a device function is one per block, as in a kernel.
__device__ __forceinline__ int
block_total(int v)
{
	__shared__ int total;

	if (threadIdx.x == 0)
		total = 0;
	__syncthreads();
	atomicAdd(&total, v);
	__syncthreads();
	return total;
}

__global__ void __launch_bounds__(256, 2)
qualified(const int *__restrict__ in, int *__restrict__ out)
{
	out[threadIdx.x] = block_total(__ldg(&in[threadIdx.x]));
}

#define LAUNCH_ONE(k, ...) k<<<1, 1>>>(__VA_ARGS__)

typedef void by_value_t(int *, pair);
static by_value_t *const by_values[2] = { by_value, by_value };

static const char *texts[] = {
	"k<<<1, 2>>>(x) in a string",
	R"raw(k<<<g, b>>>() in a "raw" string)raw",
};
static const char quote = '"', lt = '<';
// k<<<1, 1>>>(); in a line comment
/* k<<<1, 1>>>(); in a block
   comment that spans lines */

extern "C" int
sim_tricky(char *text, int size, int *values)
{
	int *d, a = 8, b = 2, c = 3, h[16] = { 0 };

	cudaMalloc(&d, 16 * sizeof(int));
	values[0] = a<<b>>c;		// a shift, not a launch: (8 << 2) >> 3
	values[1] = 1'000'000 / 1'000;	// digit separators are not character literals
	ns::fill<int, 1 << 2><<<1, 4>>>(d, 10);
	deduce<<<dim3(1),
		 dim3(4, 1, 1),
		 0>>>(d + 4, 7);
	by_value<<<(1), (min(1, 2)) /* nested () */>>>(d + 8, pair{ 3, 4 });
	LAUNCH_ONE(by_value, d + 9, pair{ 5, 6 });
	values[2] = __LINE__;	// MARK:line_probe
	cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
	for (int i = 0; i < 10; i++)
		values[3 + i] = h[i];
	dim3 gridDim(2), blockDim(4);	/* host code may name its own */
	qualified<<<gridDim, blockDim>>>(d, d + 12);	/* 14 + 14 + 14 + 14 in each block */
	cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
	values[13] = h[12];
	values[14] = h[15];
	/* kernels picked from an array, by a conditional, with a comparison among template arguments */
	by_values[1]<<<1, 1>>>(d + 13, pair{ 1, 2 });
	(c > 2 ? by_value : by_values[0])<<<1, 1>>>(d + 14, pair{ 3, 0 });
	ns::fill<int, (2 > 1)><<<1, 1>>>(d + 15, 0);
	cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
	values[15] = h[13] + h[14] + h[15];
	snprintf(text, size, "%s|%s|%c%c", texts[0], texts[1], quote, lt);
	cudaFree(d);
	return cudaGetLastError();
}

// __shared__ variables whose type is defined in their own declaration, a pointer among its members.
__global__ void shared_struct(int *out)
{
	__shared__ struct {
		int sum;
		int *where;
	} st, other;
	if (threadIdx.x == 0) {
		st.sum = 0;
		st.where = out;
		other.sum = 100;
	}
	__syncthreads();
	atomicAdd(&st.sum, (int)threadIdx.x);
	__syncthreads();
	if (threadIdx.x == 0)
		*st.where = st.sum + other.sum;
}

extern "C" int
sim_shared_struct(int *value)
{
	int *d;

	cudaMalloc(&d, sizeof(int));
	shared_struct<<<1, 32>>>(d);
	cudaMemcpy(value, d, sizeof(int), cudaMemcpyDeviceToHost);
	cudaFree(d);
	return cudaGetLastError();
}

// A kernel's __launch_bounds__, known before its first launch to the calls that ask about it.
__global__ void __launch_bounds__(96, 2)
bounded(int *out)
{
	out[threadIdx.x] = 1;
}

extern "C" int
sim_bounds_known(int *max_threads, int *block)
{
	struct cudaFuncAttributes attr;
	int min_grid = 0;

	cudaFuncGetAttributes(&attr, bounded);
	*max_threads = attr.maxThreadsPerBlock;
	cudaOccupancyMaxPotentialBlockSize(&min_grid, block, bounded);
	return cudaGetLastError();
}

// Each instance of a template and each overload has its own bound, known before its first launch; bounds
// that are expressions with comparisons, shifts, comments and commas of their own.
template <int B>
__global__ void __launch_bounds__(B > 512 ? 512 : B, 2048 / B) bounded_t(int *out)
{
	out[threadIdx.x] = B;
}

__global__ void __launch_bounds__(1 << 6) bounded_o(int *out)
{
	out[threadIdx.x] = 1;
}

__global__ void __launch_bounds__(32 /* a warp */, 1) bounded_o(float *out)
{
	out[threadIdx.x] = 1;
}

// A template's parameter of no name: no instance can be named, so its bound is unknown before it runs.
template <int>
__global__ void __launch_bounds__(64) unnamed(int *out)
{
	out[threadIdx.x] = 1;
}

extern "C" int
sim_bounds_of_instances(int bounds[5], int *unknown_block, int *unknown_launch)
{
	struct cudaFuncAttributes attr;
	void (*ints)(int *) = bounded_o;
	void (*floats)(float *) = bounded_o;
	int min_grid = 0, *d = NULL;

	cudaFuncGetAttributes(&attr, bounded_t<128>);
	bounds[0] = attr.maxThreadsPerBlock;
	cudaFuncGetAttributes(&attr, bounded_t<1024>);
	bounds[1] = attr.maxThreadsPerBlock;
	cudaFuncGetAttributes(&attr, ints);
	bounds[2] = attr.maxThreadsPerBlock;
	cudaFuncGetAttributes(&attr, floats);
	bounds[3] = attr.maxThreadsPerBlock;
	cudaOccupancyMaxPotentialBlockSize(&min_grid, &bounds[4], bounded_t<16>);
	/* the simulator's answer for a kernel of no known bound: the launch it sizes must not fail for it */
	cudaOccupancyMaxPotentialBlockSize(&min_grid, unknown_block, unnamed<0>);
	cudaMalloc(&d, 1024 * sizeof(int));
	unnamed<0><<<1, *unknown_block>>>(d);
	*unknown_launch = cudaDeviceSynchronize();
	cudaFree(d);
	return cudaGetLastError();
}

// cudaOccupancyMaxPotentialBlockSizeVariableSMem: blocks past 256 threads need 120 KB, so one at most fits.
struct big_past_256 {
	size_t operator()(int block) const { return block > 256 ? 120000 : 0; }
};

extern "C" int
sim_block_by_smem(int *unbounded, int *bounded)
{
	int min_grid = 0;

	cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, unbounded, by_value, big_past_256());
	cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(&min_grid, bounded, bounded_t<128>, big_past_256(), 0,
								cudaOccupancyDefault);
	return cudaGetLastError();
}
