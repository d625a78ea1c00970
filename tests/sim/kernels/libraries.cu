// The toolkit's header libraries as the simulator gives them: CUB's block and
// warp reductions (sim/include/cub/), libcu++'s cuda::ceil_div, and compute
// capability 9's vector atomicAdd, and bit intrinsics (__byte_perm, the funnel
// shifts, __brevll), libcu++'s cuda::atomic_ref and cuda::atomic, cuda::barrier and cuda::pipeline, and the toolkit's smaller headers a kernel file may name
// (vector_types.h, device_functions.h, math_constants.h, ...: the simulator's own,
// ahead of a toolkit's in /usr/local/include, whose declarations clash with
// cudasim.h's); tests/sim/libraries.c checks what this computes against what a GPU
// computes.
#include <builtin_types.h>
#include <common_functions.h>
#include <cub/cub.cuh>
#include <cuda/atomic>
#include <cuda/std/atomic>
#include <cuda/std/span>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/cmath>
#include <cuda_bf16.h>
#include <cuda_device_runtime_api.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cuda_stdint.h>
#include <device_atomic_functions.h>
#include <device_double_functions.h>
#include <device_functions.h>
#include <device_types.h>
#include <driver_functions.h>
#include <driver_types.h>
#include <host_config.h>
#include <host_defines.h>
#include <math_constants.h>
#include <math_functions.h>
#include <sm_20_atomic_functions.h>
#include <sm_20_intrinsics.h>
#include <sm_30_intrinsics.h>
#include <sm_32_atomic_functions.h>
#include <sm_32_intrinsics.h>
#include <sm_35_atomic_functions.h>
#include <sm_35_intrinsics.h>
#include <sm_60_atomic_functions.h>
#include <sm_61_intrinsics.h>
#include <vector_functions.h>
#include <vector_types.h>

#include "kernels.h"

enum { X = 16, Y = 6, THREADS = X * Y, LOGICAL = 16 };

__global__ void cub_reductions(int *out)
{
	typedef cub::BlockReduce<int, X, cub::BLOCK_REDUCE_WARP_REDUCTIONS, Y> BlockReduce;
	typedef cub::WarpReduce<int, LOGICAL> WarpReduce;
	__shared__ typename BlockReduce::TempStorage temp;
	__shared__ typename WarpReduce::TempStorage warp_temp[THREADS / LOGICAL];
	int tid = threadIdx.y * X + threadIdx.x, v = tid + 1;

	int all = BlockReduce(temp).Sum(v);
	__syncthreads();
	int some = BlockReduce(temp).Sum(v, 50);
	int most = BlockReduce().Reduce(v, cub::Max());
	int in_warp = WarpReduce(warp_temp[tid / LOGICAL]).Sum(v, 10);
	if (tid == 0) {
		out[0] = all;
		out[1] = some;
		out[2] = most;
	}
	if (tid % LOGICAL == 0)
		out[3 + tid / LOGICAL] = in_warp;
}

extern "C" int
sim_cub(int *out)
{
	int *d;

	cudaMalloc(&d, sizeof(int) * SIM_CUB_OUT);
	cub_reductions<<<1, dim3(X, Y)>>>(d);
	cudaMemcpy(out, d, sizeof(int) * SIM_CUB_OUT, cudaMemcpyDeviceToHost);
	cudaFree(d);
	return cudaGetLastError();
}

extern "C" long long
sim_ceil_div(long long a, int b)
{
	return cuda::ceil_div(a, b);
}

__global__ void vector_adds(float4 *four, float2 *two)
{
	atomicAdd(four, make_float4(1.0f, 2.0f, 3.0f, 4.0f));
	atomicAdd(two, make_float2(0.5f, -1.0f));
}

extern "C" int
sim_vector_atomics(float *four, float *two)
{
	float4 *d4;
	float2 *d2;

	cudaMalloc(&d4, sizeof(float4));
	cudaMalloc(&d2, sizeof(float2));
	cudaMemset(d4, 0, sizeof(float4));
	cudaMemset(d2, 0, sizeof(float2));
	vector_adds<<<3, 32>>>(d4, d2);
	cudaMemcpy(four, d4, sizeof(float4), cudaMemcpyDeviceToHost);
	cudaMemcpy(two, d2, sizeof(float2), cudaMemcpyDeviceToHost);
	cudaFree(d4);
	cudaFree(d2);
	return cudaGetLastError();
}

__global__ void bit_intrinsics(unsigned *out, unsigned long long *wide)
{
	unsigned lo = 0x89abcdefu, hi = 0x01234567u, x = 0x33221100u, y = 0x77665544u;
	out[0] = __byte_perm(x, y, 0x3210);
	out[1] = __byte_perm(x, y, 0x7654);
	out[2] = __byte_perm(x, y, 0x5140);
	out[3] = __funnelshift_l(lo, hi, 8);
	out[4] = __funnelshift_l(lo, hi, 40);
	out[5] = __funnelshift_lc(lo, hi, 40);
	out[6] = __funnelshift_r(lo, hi, 8);
	out[7] = __funnelshift_rc(lo, hi, 40);
	*wide = __brevll(1ull);
}

extern "C" int
sim_bit_intrinsics(unsigned *out, unsigned long long *wide)
{
	unsigned *d;
	unsigned long long *w;

	cudaMalloc(&d, 8 * sizeof(unsigned));
	cudaMalloc(&w, sizeof(*w));
	bit_intrinsics<<<1, 1>>>(d, w);
	cudaMemcpy(out, d, 8 * sizeof(unsigned), cudaMemcpyDeviceToHost);
	cudaMemcpy(wide, w, sizeof(*w), cudaMemcpyDeviceToHost);
	cudaFree(d);
	cudaFree(w);
	return cudaGetLastError();
}

__global__ void math_constants(float *f, double *d)
{
	f[0] = CUDART_PI_F;
	f[1] = CUDART_INF_F;
	f[2] = CUDART_NAN_F;
	f[3] = CUDART_SQRT_HALF_F;
	d[0] = CUDART_PI;
	d[1] = CUDART_INF;
	d[2] = CUDART_LN2;
}

extern "C" int
sim_math_constants(float *f, double *d)
{
	float *df;
	double *dd;

	cudaMalloc(&df, 4 * sizeof(float));
	cudaMalloc(&dd, 3 * sizeof(double));
	math_constants<<<1, 1>>>(df, dd);
	cudaMemcpy(f, df, 4 * sizeof(float), cudaMemcpyDeviceToHost);
	cudaMemcpy(d, dd, 3 * sizeof(double), cudaMemcpyDeviceToHost);
	cudaFree(df);
	cudaFree(dd);
	return cudaGetLastError();
}

__global__ void libcu_atomics(int *ints, float *f)
{
	__shared__ cuda::atomic<int, cuda::thread_scope_block> count;
	if (threadIdx.x == 0)
		count.store(0, cuda::memory_order_relaxed);
	__syncthreads();
	count.fetch_add(1);
	__syncthreads();
	cuda::atomic_ref<int, cuda::thread_scope_device> total(ints[0]), most(ints[1]), least(ints[2]), swapped(ints[3]);
	if (threadIdx.x == 0)
		total += count.load();
	most.fetch_max((int)(blockIdx.x * blockDim.x + threadIdx.x));
	least.fetch_min(-(int)threadIdx.x);
	int expected = 0;
	swapped.compare_exchange_strong(expected, 7);
	cuda::std::atomic_ref<float>(f[0]).fetch_add(0.5f, cuda::std::memory_order_relaxed);
}

extern "C" int
sim_libcu_atomics(int *ints, float *f)
{
	int *di;
	float *df;

	cudaMalloc(&di, 4 * sizeof(int));
	cudaMalloc(&df, sizeof(float));
	cudaMemset(di, 0, 4 * sizeof(int));
	cudaMemset(df, 0, sizeof(float));
	libcu_atomics<<<3, 64>>>(di, df);
	cudaMemcpy(ints, di, 4 * sizeof(int), cudaMemcpyDeviceToHost);
	cudaMemcpy(f, df, sizeof(float), cudaMemcpyDeviceToHost);
	cudaFree(di);
	cudaFree(df);
	return cudaGetLastError();
}

__global__ void libcu_copies(const int *in, int *out)
{
	__shared__ int s[64], s2[64];
	__shared__ cuda::barrier<cuda::thread_scope_block> bar;
	auto block = cooperative_groups::this_thread_block();
	int t = threadIdx.x;
	if (t == 0)
		init(&bar, block.size());
	block.sync();
	cuda::memcpy_async(block, s, in, sizeof(s), bar);
	bar.arrive_and_wait();
	out[t] = s[63 - t];
	cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
	pipe.producer_acquire();
	cuda::memcpy_async(&s2[t], &in[t], sizeof(int), pipe);
	pipe.producer_commit();
	cuda::pipeline_consumer_wait_prior<0>(pipe);
	__syncthreads();
	out[64 + t] = s2[(t + 1) % 64];
	pipe.consumer_release();
}

extern "C" int
sim_libcu_copies(const int *in, int *out)
{
	int *di, *dout;

	cudaMalloc(&di, 64 * sizeof(int));
	cudaMalloc(&dout, 128 * sizeof(int));
	cudaMemcpy(di, in, 64 * sizeof(int), cudaMemcpyHostToDevice);
	libcu_copies<<<1, 64>>>(di, dout);
	cudaMemcpy(out, dout, 128 * sizeof(int), cudaMemcpyDeviceToHost);
	cudaFree(di);
	cudaFree(dout);
	return cudaGetLastError();
}

// CUB's BlockLoad of 64 threads x 4 items by each algorithm, written back blocked (out[t * 4 + i] is thread
// t's item i): 0 DIRECT, 1 VECTORIZE, 2 TRANSPOSE, 3 WARP_TRANSPOSE, 4 STRIPED; 5 BlockStore's TRANSPOSE of
// the blocked items; 6 a TRANSPOSE load of the first 100 items, -1 past them.
template <cub::BlockLoadAlgorithm A>
__device__ void load_as(const int *in, int (&items)[4])
{
	__shared__ typename cub::BlockLoad<int, 64, 4, A>::TempStorage temp;
	cub::BlockLoad<int, 64, 4, A>(temp).Load(in, items);
}

__global__ void cub_loads(const int *in, int *out)
{
	int items[4], t = threadIdx.x;
	load_as<cub::BLOCK_LOAD_DIRECT>(in, items);
	cub::StoreDirectBlocked(t, out, items);
	load_as<cub::BLOCK_LOAD_VECTORIZE>(in, items);
	cub::StoreDirectBlocked(t, out + 256, items);
	load_as<cub::BLOCK_LOAD_TRANSPOSE>(in, items);
	cub::StoreDirectBlocked(t, out + 512, items);
	load_as<cub::BLOCK_LOAD_WARP_TRANSPOSE>(in, items);
	cub::StoreDirectBlocked(t, out + 768, items);
	load_as<cub::BLOCK_LOAD_STRIPED>(in, items);
	cub::StoreDirectBlocked(t, out + 1024, items);
	__shared__ cub::BlockStore<int, 64, 4, cub::BLOCK_STORE_TRANSPOSE>::TempStorage store_temp;
	cub::LoadDirectBlocked(t, in, items);
	cub::BlockStore<int, 64, 4, cub::BLOCK_STORE_TRANSPOSE>(store_temp).Store(out + 1280, items);
	__shared__ cub::BlockLoad<int, 64, 4, cub::BLOCK_LOAD_TRANSPOSE>::TempStorage partial_temp;
	cub::BlockLoad<int, 64, 4, cub::BLOCK_LOAD_TRANSPOSE>(partial_temp).Load(in, items, 100, -1);
	cub::StoreDirectBlocked(t, out + 1536, items);
}

extern "C" int
sim_cub_loads(const int *in, int *out)
{
	int *din, *dout;

	cudaMalloc(&din, 256 * sizeof(int));
	cudaMalloc(&dout, 7 * 256 * sizeof(int));
	cudaMemcpy(din, in, 256 * sizeof(int), cudaMemcpyHostToDevice);
	cub_loads<<<1, 64>>>(din, dout);
	cudaMemcpy(out, dout, 7 * 256 * sizeof(int), cudaMemcpyDeviceToHost);
	cudaFree(din);
	cudaFree(dout);
	return cudaGetLastError();
}

// cuda::std::span as a kernel's parameter: out[0] its size, out[1] + out[2] its front and back, out[3] the sum
// of subspan(2, 3), out[4] the sum of last(2), out[5] the size of first<4>()
__global__ void spans(cuda::std::span<const int> in, int *out)
{
	out[0] = (int)in.size();
	out[1] = in.front();
	out[2] = in.back();
	int s = 0, t = 0;
	for (int v : in.subspan(2, 3))
		s += v;
	for (int v : in.last(2))
		t += v;
	out[3] = s;
	out[4] = t;
	out[5] = (int)in.first<4>().size();
}

extern "C" int
sim_spans(const int *in, int n, int *out)
{
	int *din, *dout;

	cudaMalloc(&din, n * sizeof(int));
	cudaMalloc(&dout, 6 * sizeof(int));
	cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice);
	spans<<<1, 1>>>(cuda::std::span<const int>(din, (size_t)n), dout);
	cudaMemcpy(out, dout, 6 * sizeof(int), cudaMemcpyDeviceToHost);
	cudaFree(din);
	cudaFree(dout);
	return cudaGetLastError();
}

// __fns as PTX's fns defines it: PTX's own four examples, then past the last set bit, and offset 0 on a clear bit
extern "C" void
sim_fns(unsigned *out)
{
	out[0] = __fns(0xaaaaaaaau, 3, 1);
	out[1] = __fns(0xaaaaaaaau, 3, -1);
	out[2] = __fns(0xaaaaaaaau, 2, 1);
	out[3] = __fns(0xaaaaaaaau, 2, -1);
	out[4] = __fns(0x0000000fu, 0, 5);
	out[5] = __fns(0xaaaaaaaau, 2, 0);
	out[6] = __fns(0xffffffffu, 0, 32);
}

// CUDA's functions that C lacks: erfinvf(0.5), normcdfinvf(0.975), normcdff(1.96), erfcxf(1), erfcxf(30),
// cyl_bessel_i0f(1), cyl_bessel_i1f(-1), rnorm3df(3, 4, 12), normf over {3, 4, 12}, rhypotf(3, 4)
extern "C" void
sim_more_math(float *out)
{
	float v[3] = { 3.0f, 4.0f, 12.0f };
	out[0] = erfinvf(0.5f);
	out[1] = normcdfinvf(0.975f);
	out[2] = normcdff(1.96f);
	out[3] = erfcxf(1.0f);
	out[4] = erfcxf(30.0f);
	out[5] = cyl_bessel_i0f(1.0f);
	out[6] = cyl_bessel_i1f(-1.0f);
	out[7] = rnorm3df(3.0f, 4.0f, 12.0f);
	out[8] = normf(3, v);
	out[9] = rhypotf(3.0f, 4.0f);
}
