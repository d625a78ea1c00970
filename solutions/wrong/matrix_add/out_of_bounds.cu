// expect: run
// No bounds test and a far-off write: the kernel touches memory it was not given.
#include "cudalings/matrix_add.h"

__global__ void matrix_add_wild(const float *a, const float *b, float *out, int rows, int cols)
{
    size_t i = (size_t)(blockIdx.y * blockDim.y + threadIdx.y) * cols + blockIdx.x * blockDim.x + threadIdx.x;
    out[i + ((size_t)1 << 34)] = a[i] + b[i];
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    dim3 block(32, 32);
    dim3 grid((cols + 31) / 32, (rows + 31) / 32);
    matrix_add_wild<<<grid, block>>>(a, b, out, rows, cols);
}
