/*
 * histogram — count how often each byte value occurs.
 *
 * `pixels` holds n bytes; `bins` has 256 counters: bins[v] must end as the
 * number of i with pixels[i] == v. Any n ≥ 1 must work. It must run within
 * 1.25× of the reference solution on your GPU. Lesson: slides/histogram.md
 */
#include "cudalings/histogram.h"

#define BINS 256
#define THREADS 256     // threads per block
#define MAX_BLOCKS 1024 // a grid-stride loop covers the rest

__global__ void histogram_kernel(const unsigned char *pixels, unsigned int *bins, int n)
{
    // BEGIN SOLUTION: count into a __shared__ copy of the bins (zeroed first, the whole block waiting before and after counting) with atomicAdd, then add each of the block's 256 counts to `bins` once, with atomicAdd
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();

    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n; i += (size_t)gridDim.x * blockDim.x)
        atomicAdd(&local[pixels[i]], 1u);
    __syncthreads();

    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        atomicAdd(&bins[b], local[b]);
    // END SOLUTION
}

void histogram_launch(const unsigned char *pixels, unsigned int *bins, int n)
{
    // BEGIN SOLUTION: every bin starts at 0 (the harness fills them with garbage); then enough blocks of THREADS to cover n, at most MAX_BLOCKS
    cudaMemset(bins, 0, BINS * sizeof(unsigned int));
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    // STARTER
    // int blocks = 1;
    // END SOLUTION
    histogram_kernel<<<blocks, THREADS>>>(pixels, bins, n);
}
