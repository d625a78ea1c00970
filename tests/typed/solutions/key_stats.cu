/*
 * key_stats — per key, the sum of its weights and how many elements have it.
 *
 * keys[i] is in 0..63; totals[k] must end as the sum of weights[i] over the
 * i with keys[i] == k (in double precision), counts[k] as how many such i
 * there are. Any n ≥ 1 must work. Lesson: slides/key_stats.md
 */
#include "cudalings/key_stats.h"

#define KEYS 64
#define THREADS 256
#define MAX_BLOCKS 1024

// Each block adds into its own totals and counts in shared memory, then into the global ones once per key:
// global atomics on 64 addresses from every thread would time the L2's atomic units (and where in it the
// outputs happen to lie), not the kernel.
__global__ void key_stats_kernel(const int *keys, const double *weights, double *totals, int *counts, int n)
{
    __shared__ double block_totals[KEYS];
    __shared__ int block_counts[KEYS];
    for (int k = threadIdx.x; k < KEYS; k += blockDim.x) {
        block_totals[k] = 0.0;
        block_counts[k] = 0;
    }
    __syncthreads();
    // BEGIN SOLUTION: a grid-stride loop: add each element's weight to its key's block total and 1 to its block count, each with atomicAdd
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        atomicAdd(&block_totals[keys[i]], weights[i]);
        atomicAdd(&block_counts[keys[i]], 1);
    }
    // END SOLUTION
    __syncthreads();
    for (int k = threadIdx.x; k < KEYS; k += blockDim.x)
        if (block_counts[k]) {
            atomicAdd(&totals[k], block_totals[k]);
            atomicAdd(&counts[k], block_counts[k]);
        }
}

void key_stats_launch(const int *keys, const double *weights, double *totals, int *counts, int n)
{
    // BEGIN SOLUTION: every total and count starts at 0
    cudaMemset(totals, 0, KEYS * sizeof(double));
    cudaMemset(counts, 0, KEYS * sizeof(int));
    // END SOLUTION
    int blocks = (n + THREADS - 1) / THREADS;
    key_stats_kernel<<<blocks < MAX_BLOCKS ? blocks : MAX_BLOCKS, THREADS>>>(keys, weights, totals, counts, n);
}
