// expect: run
// A loop whose counter never reaches its bound: the grader must stop it and
// say which case hung, not hang itself.
#include "cudalings/col_sums.h"

__global__ void col_sums_forever(const float *a, float *sums, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols)
        return;
    float sum = 0.0f;
    for (int r = 0; r < rows; r += (rows > 1)) // steps by 0 when there is one row
        sum += a[(size_t)r * cols + col];
    sums[col] = sum;
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    col_sums_forever<<<(cols + 255) / 256, 256>>>(a, sums, rows, cols);
}
