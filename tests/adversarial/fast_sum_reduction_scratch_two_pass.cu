// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate: a scratch array of per-block sums from cudaMalloc in the
// launcher (freed after), the grid from cudaOccupancyMaxActiveBlocksPerMultiprocessor
// times the SM count, warp sums by __shfl_down_sync with a width of 16 then
// __shfl_xor_sync, a second launch over the partial sums; errors checked.
#include <cuda_runtime.h>
#include <cstdio>
#include "cudalings/sum_reduction.h"

#define THREADS 256

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int off = 8; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off, 16); // each half-warp on its own
    v += __shfl_xor_sync(0xffffffffu, v, 16);           // then the two halves
    return v;
}

__global__ void __launch_bounds__(THREADS) block_sums(const float *__restrict__ in, float *__restrict__ out,
                                                      size_t n)
{
    __shared__ float warps[THREADS / 32];
    float v = 0.0f;
    for (size_t i = blockIdx.x * (size_t)THREADS + threadIdx.x; i < n; i += (size_t)gridDim.x * THREADS)
        v += in[i];
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0)
        warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < THREADS / 32 ? warps[threadIdx.x] : 0.0f;
        v = warp_sum(v);
        if (threadIdx.x == 0)
            out[blockIdx.x] = v;
    }
}

static void check(cudaError_t err, const char *what)
{
    if (err != cudaSuccess)
        fprintf(stderr, "sum_reduction: %s: %s\n", what, cudaGetErrorString(err));
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    int dev = 0, sms = 1, per_sm = 1;
    check(cudaGetDevice(&dev), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "attribute");
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, block_sums, THREADS, 0), "occupancy");
    int blocks = sms * per_sm;
    if (blocks > (n + THREADS - 1) / THREADS)
        blocks = (n + THREADS - 1) / THREADS;
    if (blocks < 1)
        blocks = 1;
    float *partial = nullptr;
    check(cudaMalloc(&partial, blocks * sizeof(float)), "cudaMalloc");
    block_sums<<<blocks, THREADS>>>(in, partial, (size_t)n);
    check(cudaGetLastError(), "first launch");
    block_sums<<<1, THREADS>>>(partial, sum, (size_t)blocks);
    check(cudaGetLastError(), "second launch");
    check(cudaDeviceSynchronize(), "synchronize");
    check(cudaFree(partial), "cudaFree");
}
