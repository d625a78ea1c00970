// expect: correctness
// An off-by-one in the loop bound: the last row is never added.
#include "cudalings/col_sums.h"

__global__ void col_sums_kernel(const float *a, float *sums, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols)
        return;
    float sum = 0.0f;
    for (int r = 0; r < rows - 1; r++)
        sum += a[(size_t)r * cols + col];
    sums[col] = sum;
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    col_sums_kernel<<<(cols + 255) / 256, 256>>>(a, sums, rows, cols);
}
