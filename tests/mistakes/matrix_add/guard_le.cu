// exercise: matrix_add
// expect: run
// diagnosis: out_of_bounds
// message: one past the end of
// <= in the guard: the thread at col == cols of the last row reads and writes one
// past the end (elsewhere it writes the next row's first element, with the right value).
#include "cudalings/matrix_add.h"

__global__ void matrix_add_kernel(const float *a, const float *b, float *out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col <= cols) {
        size_t i = (size_t)row * cols + col;
        out[i] = a[i] + b[i];
    }
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    dim3 block(32, 32);
    dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
    matrix_add_kernel<<<grid, block>>>(a, b, out, rows, cols);
}
