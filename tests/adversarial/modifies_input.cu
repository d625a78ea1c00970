// exercise: col_sums
// expect: correctness
// message: changed its input 'a'
// Right sums, but the matrix is used as scratch space.
#include "cudalings/col_sums.h"
__global__ void k(const float *a, float *sums, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols)
        return;
    float *scratch = const_cast<float *>(a);
    for (int r = 1; r < rows; r++)
        scratch[(size_t)r * cols + col] += scratch[(size_t)(r - 1) * cols + col];
    sums[col] = scratch[(size_t)(rows - 1) * cols + col];
}
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    k<<<(cols + 255) / 256, 256>>>(a, sums, rows, cols);
}
