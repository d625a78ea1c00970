/*
 * sum_reduction — the sum of n floats: a tree in shared memory inside each
 * block, then the same kernel once more over the blocks' partial sums.
 *
 * *sum = in[0] + in[1] + … + in[n-1], for any n ≥ 1. The grader fills *sum
 * with NaN before every launch: whatever writes it must write it whole.
 * Lesson: slides/sum_reduction.md
 */
#include "cudalings/sum_reduction.h"

#define THREADS 256     // a power of two: the tree halves it at every step
#define MAX_BLOCKS 1024 // a round number just under the 1,056 blocks of 256 an H100 runs at once (8 on each of 132 SMs)

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

    // TODO: the tree: at each step the first `stride` threads add partial[threadIdx.x + stride] to their own element (stride = THREADS/2, THREADS/4, …, 1), and the whole block waits before the next step

    // TODO: partial[0] now holds the block's sum: one thread writes it to out[blockIdx.x]
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    float *partials;
    cudaGetSymbolAddress((void **)&partials, block_sums);

    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    sum_reduction_kernel<<<blocks, THREADS>>>(in, partials, n);
    // TODO: a second launch of the same kernel, with one block, adds the `blocks` partial sums into *sum (the launches run in order: the second sees all that the first wrote)
}
