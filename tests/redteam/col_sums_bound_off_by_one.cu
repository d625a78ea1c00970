// exercise: col_sums
// expect: run
// message: one past the end
// An honest mistake: the bounds test lets the thread of column `cols` through
// (`>` where `>=` was meant), so it reads past the end of every row and writes
// sums[cols], one past the end of the output.
#include "cudalings/col_sums.h"

__global__ void col_sums_kernel(const float *a, float *sums, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col > cols)
        return;
    float t = 0.0f;
    for (int r = 0; r < rows; r++)
        t += a[(size_t)r * cols + col];
    sums[col] = t;
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    col_sums_kernel<<<(cols + 255) / 256, 256>>>(a, sums, rows, cols);
}
