// exercise: col_sums
// A mistake for bench/estimate.py: one thread per block, a block per column,
// so every warp has one live lane. Not measured on a GPU; must be estimated
// slower than the threshold.
#include "cudalings/col_sums.h"

__global__ void col_sums_single(const float *a, float *sums, int rows, int cols)
{
    int col = blockIdx.x;
    float sum = 0.0f;
    for (int r = 0; r < rows; r++)
        sum += a[(size_t)r * cols + col];
    sums[col] = sum;
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    col_sums_single<<<cols, 1>>>(a, sums, rows, cols);
}
