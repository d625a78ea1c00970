// exercise: col_sums
// expect: run
// message: illegal memory address
#include "cudalings/col_sums.h"
__global__ void k(const float *a, float *sums, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col < cols)
        sums[col] = a[col - ((size_t)1 << 36)];
}
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    k<<<(cols + 255) / 256, 256>>>(a, sums, rows, cols);
}
