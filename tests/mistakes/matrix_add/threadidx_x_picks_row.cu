// exercise: matrix_add
// expect: performance
// diagnosis: uncoalesced
// message: sectors of 32 bytes per request
// threadIdx.x picks the row: the 32 threads of a warp touch 32 rows, a sector each.
#include "cudalings/matrix_add.h"

__global__ void matrix_add_kernel(const float *a, const float *b, float *out, int rows, int cols)
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
    dim3 grid((rows + block.x - 1) / block.x, (cols + block.y - 1) / block.y);
    matrix_add_kernel<<<grid, block>>>(a, b, out, rows, cols);
}
