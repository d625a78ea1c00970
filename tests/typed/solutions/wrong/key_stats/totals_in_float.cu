// expect: correctness
// Each weight is rounded to float before it is added: the totals are off by
// float32's rounding (about 1e-7 of each weight), far beyond what a sum of
// doubles in another order costs, so the float64 tolerance refuses them.
#include "cudalings/key_stats.h"

__global__ void key_stats_kernel(const int *keys, const double *weights, double *totals, int *counts, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float w = (float)weights[i];
        atomicAdd(&totals[keys[i]], (double)w);
        atomicAdd(&counts[keys[i]], 1);
    }
}

void key_stats_launch(const int *keys, const double *weights, double *totals, int *counts, int n)
{
    cudaMemset(totals, 0, 64 * sizeof(double));
    cudaMemset(counts, 0, 64 * sizeof(int));
    key_stats_kernel<<<(n + 255) / 256, 256>>>(keys, weights, totals, counts, n);
}
