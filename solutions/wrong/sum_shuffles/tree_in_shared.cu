// expect: performance
// The reference of `sum_reduction`: float loads, a tree of barriers in shared
// memory, a second launch over the blocks' sums. On an H100 it ran 1.35x the
// time of the float4-and-shuffles reference (bench/gold-h100.md).
#include "cudalings/sum_shuffles.h"

#define THREADS 256     // a power of two: the tree halves it at every step
#define MAX_BLOCKS 1024 // about as many blocks of 256 as an H100 or H200 runs at once

// The first launch leaves one partial sum per block here, in global memory.
__device__ float block_sums[MAX_BLOCKS];

// Writes out[blockIdx.x] = the sum of this block's share of in[0..n-1].
__global__ void sum_reduction_kernel(const float *in, float *out, int n)
{
    __shared__ float partial[THREADS];

    // Each thread first adds up its own share of the input: elements i,
    // i + (all the threads of the grid), i + 2 × (all the threads), … so a
    // warp reads 32 neighbours at every step and any n is covered.
    float mine = 0.0f;
    size_t step = (size_t)gridDim.x * THREADS;
    for (size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x; i < (size_t)n; i += step)
        mine += in[i];
    partial[threadIdx.x] = mine;
    __syncthreads();

    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }

    if (threadIdx.x == 0)
        out[blockIdx.x] = partial[0];
}

void sum_shuffles_launch(const float *in, float *sum, int n)
{
    float *partials;
    cudaGetSymbolAddress((void **)&partials, block_sums);

    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    sum_reduction_kernel<<<blocks, THREADS>>>(in, partials, n);
    sum_reduction_kernel<<<1, THREADS>>>(partials, sum, blocks);
}
