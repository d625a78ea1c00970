// exercise: matrix_add
// expect: run
// message: past the end
// An honest mistake: the grid is rounded up to whole 16 x 16 blocks and the
// kernel has no bounds test, so threads beyond the last row or column read
// and write past the end of the matrices.
#include "cudalings/matrix_add.h"

__global__ void add(const float *a, const float *b, float *out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    size_t i = (size_t)row * cols + col;
    out[i] = a[i] + b[i];
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    add<<<dim3((cols + 15) / 16, (rows + 15) / 16), dim3(16, 16)>>>(a, b, out, rows, cols);
}
