// expect: correctness
// Each count lands one key over (the last key's is dropped): counts differ exactly by one element.
#include "cudalings/key_stats.h"

__global__ void key_stats_kernel(const int *keys, const double *weights, double *totals, int *counts, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&totals[keys[i]], weights[i]);
        if (keys[i] + 1 < 64)
            atomicAdd(&counts[keys[i] + 1], 1);
    }
}

void key_stats_launch(const int *keys, const double *weights, double *totals, int *counts, int n)
{
    cudaMemset(totals, 0, 64 * sizeof(double));
    cudaMemset(counts, 0, 64 * sizeof(int));
    key_stats_kernel<<<(n + 255) / 256, 256>>>(keys, weights, totals, counts, n);
}
