// exercise: matrix_add
// expect: pass
// message: cases correct
// Legitimate: the data treated as one flat array, but walked by a 2D grid of
// 1D blocks (gridDim.x capped at 1024, the rest in y), as some students do
// to stay under a dimension limit. Blocks past the end return at once.
#include "cudalings/matrix_add.h"

__global__ void add_linear(const float *a, const float *b, float *out, size_t n)
{
    size_t block = (size_t)blockIdx.y * gridDim.x + blockIdx.x;
    size_t i = block * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    out[i] = a[i] + b[i];
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    size_t blocks = (n + 511) / 512;
    unsigned gx = blocks < 1024 ? (unsigned)blocks : 1024;
    unsigned gy = (unsigned)((blocks + gx - 1) / gx);
    add_linear<<<dim3(gx, gy), 512>>>(a, b, out, n);
}
