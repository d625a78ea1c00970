// exercise: col_sums
// A mistake for bench/estimate.py: columns dealt across blocks
// (col = threadIdx.x * gridDim.x + blockIdx.x), so a warp reads columns
// gridDim.x apart. H100: 2247 µs, 3.40x the reference (/work/shared/MEASUREMENTS.md).
#include "cudalings/col_sums.h"

__global__ void col_sums_across(const float *a, float *sums, int rows, int cols)
{
    int col = threadIdx.x * gridDim.x + blockIdx.x;
    if (col >= cols)
        return;
    float sum = 0.0f;
    for (int r = 0; r < rows; r++)
        sum += a[(size_t)r * cols + col];
    sums[col] = sum;
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    int threads = 256, blocks = (cols + threads - 1) / threads;
    col_sums_across<<<blocks, threads>>>(a, sums, rows, cols);
}
