// expect: performance
// The row_sums access pattern in a correct col_sums: every thread still sums
// one column, but the 32 lanes of a warp take columns far apart, so each load
// of a warp touches 32 different sectors instead of 4.
#include "cudalings/col_sums.h"

__global__ void col_sums_strided(const float *a, float *sums, int rows, int cols)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int warps = (cols + 31) / 32;
    int col = (t % 32) * warps + t / 32; // lane-major: neighbours are `warps` columns apart
    if (t >= 32 * warps || col >= cols)
        return;
    float sum = 0.0f;
    for (int r = 0; r < rows; r++)
        sum += a[(size_t)r * cols + col];
    sums[col] = sum;
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    int threads = 256, total = 32 * ((cols + 31) / 32);
    col_sums_strided<<<(total + threads - 1) / threads, threads>>>(a, sums, rows, cols);
}
