/*
 * sum_reduction, gold: the sum of n floats, reading at the rate of a copy.
 *
 * - float4 loads: each thread sums its share of the input in registers, as
 *   the reference does, but four floats per load instruction, so that four
 *   times the bytes are in flight.
 * - A grid that just fills the GPU: 8 blocks of 256 per multiprocessor.
 * - No tree of barriers: a warp adds its 32 sums with __shfl_down_sync, the
 *   block's 8 warps meet once in shared memory, and each block adds its sum
 *   into *sum with one atomicAdd (into *sum set to 0 first), instead of a
 *   second launch over the blocks' sums.
 *
 * What did not help on an H100 (bench/gold-h100.md, the variants tried): 2
 * to 8 float4 loads issued before the first add, 4 or 16 blocks per
 * multiprocessor, and one launch without the memset, the last block to
 * finish adding the blocks' sums. Each was slower, by 0.6% to 1.3%.
 */
#include "cudalings/sum_reduction.h"

#include <cuda_runtime.h>

#define THREADS 256
#define BLOCKS_PER_SM 8 // 8 blocks of 256 fill a multiprocessor's 2,048 threads

__device__ __forceinline__ float warp_sum(float v)
{
    #pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void __launch_bounds__(THREADS)
sum_reduction_float4(const float *__restrict__ in, float *__restrict__ sum, int n)
{
    __shared__ float warps[THREADS / 32];
    size_t first = (size_t)blockIdx.x * THREADS + threadIdx.x, step = (size_t)gridDim.x * THREADS;
    const float4 *in4 = (const float4 *)in; // cudaMalloc'd: 16-byte aligned
    size_t n4 = (size_t)n / 4;
    float v = 0.0f;
    for (size_t i = first; i < n4; i += step) {
        float4 x = __ldg(&in4[i]);
        v += (x.x + x.y) + (x.z + x.w);
    }
    // the 0 to 3 floats past the last whole float4
    for (size_t i = 4 * n4 + first; i < (size_t)n; i += step)
        v += in[i];

    v = warp_sum(v);
    if (threadIdx.x % 32 == 0)
        warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = warp_sum(threadIdx.x < THREADS / 32 ? warps[threadIdx.x] : 0.0f);
        if (threadIdx.x == 0)
            atomicAdd(sum, v);
    }
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
    long long blocks = ((long long)n / 4 + THREADS - 1) / THREADS;
    if (blocks > (long long)BLOCKS_PER_SM * sms)
        blocks = (long long)BLOCKS_PER_SM * sms;
    if (blocks < 1)
        blocks = 1;
    cudaMemsetAsync(sum, 0, sizeof(float)); // the blocks add into it
    sum_reduction_float4<<<(unsigned)blocks, THREADS>>>(in, sum, n);
}
