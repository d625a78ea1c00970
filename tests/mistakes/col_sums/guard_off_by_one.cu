// exercise: col_sums
// expect: run
// diagnosis: out_of_bounds
// message: one past the end of
// The guard lets col == cols through: that thread reads past the end of a in the
// last row and writes sums[cols], one past the end. Nothing faults: a GPU passes it.
#include "cudalings/col_sums.h"

__global__ void col_sums_kernel(const float *a, float *sums, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col > cols)
        return;

    float sum = 0.0f;
    for (int r = 0; r < rows; r++)
        sum += a[(size_t)r * cols + col];
    sums[col] = sum;
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    int threads = 256;
    int blocks = (cols + threads - 1) / threads;
    col_sums_kernel<<<blocks, threads>>>(a, sums, rows, cols);
}
