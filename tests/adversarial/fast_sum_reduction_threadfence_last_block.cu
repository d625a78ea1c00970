// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate and fast: one launch, NVIDIA's threadFenceReduction sample: each block's sum (shuffles, then
// its warps' sums) is stored, published by __threadfence(), and the block counts itself in with atomicInc;
// the last block to arrive adds the partial sums and resets the __device__ counter for the next launch.
// It passed the simulator when written (blocks read each other's published sums, and which block is last
// follows the order they ran in); kept as a fixture of the style. Checked on the simulator only (no GPU
// this session).
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"

#define THREADS 256
#define MAX_BLOCKS 1024

__device__ float g_partials[MAX_BLOCKS];
__device__ unsigned int g_retired = 0;

__device__ __forceinline__ float warp_reduce(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

__device__ float block_reduce(float v)
{
    __shared__ float warps[THREADS / 32];
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    v = warp_reduce(v);
    if (lane == 0)
        warps[warp] = v;
    __syncthreads();
    v = threadIdx.x < THREADS / 32 ? warps[lane] : 0.0f;
    if (warp == 0)
        v = warp_reduce(v);
    return v;
}

// NVIDIA's threadFenceReduction sample: each block writes its partial sum, fences, and counts itself in;
// the last block to arrive adds the partials and resets the counter for the next launch
__global__ void __launch_bounds__(THREADS) reduce_single_pass(const float *__restrict__ in, float *__restrict__ sum,
                                                               unsigned int n)
{
    __shared__ bool am_last;
    float v = 0.0f;
    for (unsigned int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS)
        v += in[i];
    v = block_reduce(v);
    if (threadIdx.x == 0) {
        g_partials[blockIdx.x] = v;
        __threadfence();
        const unsigned int ticket = atomicInc(&g_retired, gridDim.x);
        am_last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (am_last) {
        float t = 0.0f;
        for (unsigned int b = threadIdx.x; b < gridDim.x; b += THREADS)
            t += g_partials[b];
        t = block_reduce(t);
        if (threadIdx.x == 0) {
            *sum = t;
            g_retired = 0;
        }
    }
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    reduce_single_pass<<<blocks, THREADS>>>(in, sum, (unsigned int)n);
}
