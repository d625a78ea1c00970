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

__global__ void key_stats_kernel(const int *keys, const double *weights, double *totals, int *counts, int n)
{
    // BEGIN SOLUTION: one element per thread: add its weight to its key's total and 1 to its key's count, each with atomicAdd
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&totals[keys[i]], weights[i]);
        atomicAdd(&counts[keys[i]], 1);
    }
    // END SOLUTION
}

void key_stats_launch(const int *keys, const double *weights, double *totals, int *counts, int n)
{
    // BEGIN SOLUTION: every total and count starts at 0
    cudaMemset(totals, 0, KEYS * sizeof(double));
    cudaMemset(counts, 0, KEYS * sizeof(int));
    // END SOLUTION
    key_stats_kernel<<<(n + THREADS - 1) / THREADS, THREADS>>>(keys, weights, totals, counts, n);
}
