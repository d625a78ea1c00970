// expect: performance
// Correct, but x picks the row: the 32 threads of a warp read down a column,
// 32 sectors per load instead of 4.
#include "cudalings/matrix_add.h"

__global__ void matrix_add_swapped(const float *a, const float *b, float *out, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        size_t i = (size_t)row * cols + col;
        out[i] = a[i] + b[i];
    }
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    dim3 block(32, 32);
    dim3 grid((rows + 31) / 32, (cols + 31) / 32);
    matrix_add_swapped<<<grid, block>>>(a, b, out, rows, cols);
}
