/*
 * sum_reduction, gold: the sum of n floats in one launch, reading at the rate
 * of a copy.
 *
 * - Every thread of a grid that just fills the GPU (8 blocks of 256 per
 *   multiprocessor) sums its share in registers, as the reference does, but
 *   with float4 loads, UNROLL of them issued before the first add.
 * - The block's 256 sums meet without a tree of barriers: each warp adds its
 *   32 with __shfl_down_sync, then the first warp adds the 8 warps' sums.
 * - The blocks' sums meet in the same launch: each block writes its own and
 *   counts itself done (atomicInc, after a __threadfence() so that its sum is
 *   visible first); the block that counts last adds them all, in block order,
 *   and writes *sum whole. atomicInc wraps the count back to 0 for the next launch.
 */
#include "cudalings/sum_reduction.h"

#include <cuda_runtime.h>

#define THREADS 256
#define BLOCKS_PER_SM 8
#define MAX_BLOCKS 4096
#define UNROLL 4

__device__ float block_sums[MAX_BLOCKS];
__device__ unsigned int blocks_done;

__device__ __forceinline__ float warp_sum(float v)
{
    #pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

// The sum of v over the block, in thread 0.
__device__ __forceinline__ float block_sum(float v)
{
    __shared__ float warps[THREADS / 32];
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0)
        warps[threadIdx.x / 32] = v;
    __syncthreads();
    v = 0.0f;
    if (threadIdx.x < 32) {
        v = threadIdx.x < THREADS / 32 ? warps[threadIdx.x] : 0.0f;
        v = warp_sum(v);
    }
    return v;
}

__global__ void __launch_bounds__(THREADS)
sum_reduction_once(const float *__restrict__ in, float *__restrict__ sum, int n)
{
    size_t n4 = (size_t)n / 4, step = (size_t)gridDim.x * THREADS;
    size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x;
    const float4 *in4 = (const float4 *)in; // cudaMalloc'd: 16-byte aligned
    float v = 0.0f;
    for (; i + (UNROLL - 1) * step < n4; i += UNROLL * step) {
        float4 x[UNROLL];
        #pragma unroll
        for (int u = 0; u < UNROLL; u++)
            x[u] = __ldg(&in4[i + u * step]);
        #pragma unroll
        for (int u = 0; u < UNROLL; u++)
            v += (x[u].x + x[u].y) + (x[u].z + x[u].w);
    }
    for (; i < n4; i += step) {
        float4 x = __ldg(&in4[i]);
        v += (x.x + x.y) + (x.z + x.w);
    }
    // the 0 to 3 floats past the last whole float4
    size_t tail = 4 * n4 + (size_t)blockIdx.x * THREADS + threadIdx.x;
    if (tail < (size_t)n)
        v += in[tail];

    v = block_sum(v);
    __shared__ bool last;
    if (threadIdx.x == 0) {
        block_sums[blockIdx.x] = v;
        __threadfence();
        last = atomicInc(&blocks_done, gridDim.x - 1) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last)
        return;
    // the last block: every other block's sum is visible
    __threadfence();
    v = 0.0f;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += THREADS)
        v += ((volatile float *)block_sums)[b];
    v = block_sum(v);
    if (threadIdx.x == 0)
        *sum = v;
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    static int sms;
    if (!sms) {
        int device = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        if (sms < 1)
            sms = 1;
    }
    long long quads = (long long)n / 4;
    long long blocks = (quads + THREADS - 1) / THREADS;
    if (blocks > (long long)BLOCKS_PER_SM * sms)
        blocks = (long long)BLOCKS_PER_SM * sms;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    if (blocks < 1)
        blocks = 1;
    sum_reduction_once<<<(unsigned)blocks, THREADS>>>(in, sum, n);
}
