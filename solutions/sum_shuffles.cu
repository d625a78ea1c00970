/*
 * sum_shuffles — the sum of n floats, with float4 loads and warp shuffles.
 *
 * *sum = in[0] + in[1] + … + in[n-1], for any n ≥ 1. *sum arrives filled
 * with NaN. Each thread adds its share in registers, reading four floats at
 * a time; a warp adds its 32 sums with __shfl_down_sync, with no shared
 * memory and no barrier; the block's warps meet once in shared memory; each
 * block adds its sum into *sum with atomicAdd. It must run within 1.15× of
 * this reference on your GPU. Lesson: slides/sum_shuffles.md
 */
#include "cudalings/sum_shuffles.h"

#define THREADS 256     // threads per block: 8 warps
#define MAX_BLOCKS 1056 // all the blocks of 256 an H100 runs at once: 8 on each of its 132 SMs

// Lane 0 gets the sum of v over the 32 lanes of its warp.
__device__ float warp_sum(float v)
{
    // BEGIN SOLUTION: five steps: add the value of the lane 16 further on, then 8, 4, 2 and 1 further on (__shfl_down_sync with the full mask 0xffffffff)
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    // END SOLUTION
    return v;
}

__global__ void sum_shuffles_kernel(const float *in, float *sum, int n)
{
    __shared__ float warps[THREADS / 32];
    size_t first = (size_t)blockIdx.x * THREADS + threadIdx.x;
    size_t step = (size_t)gridDim.x * THREADS;
    float v = 0.0f;

    // BEGIN SOLUTION: the grid-stride loop over whole float4s: in4[i] is in[4i .. 4i+3], and there are n / 4 of them; add all four of each
    const float4 *in4 = (const float4 *)in; // cudaMalloc'd memory: 16-byte aligned
    size_t n4 = (size_t)n / 4;
    for (size_t i = first; i < n4; i += step) {
        float4 x = in4[i];
        v += (x.x + x.y) + (x.z + x.w);
    }
    // STARTER
    // size_t n4 = 0;
    // END SOLUTION
    // what the float4s leave: the last n % 4 floats (all of them while n4 is 0)
    for (size_t i = 4 * n4 + first; i < (size_t)n; i += step)
        v += in[i];

    v = warp_sum(v);
    // BEGIN SOLUTION: lane 0 of each warp puts its warp's sum in warps[], the block waits, then the first warp adds the THREADS / 32 sums with warp_sum
    if (threadIdx.x % 32 == 0)
        warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32)
        v = warp_sum(threadIdx.x < THREADS / 32 ? warps[threadIdx.x] : 0.0f);
    // END SOLUTION
    if (threadIdx.x == 0)
        atomicAdd(sum, v);
}

void sum_shuffles_launch(const float *in, float *sum, int n)
{
    cudaMemsetAsync(sum, 0, sizeof(float)); // the blocks add into it
    long long blocks = ((long long)n / 4 + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    if (blocks < 1)
        blocks = 1;
    sum_shuffles_kernel<<<(int)blocks, THREADS>>>(in, sum, n);
}
