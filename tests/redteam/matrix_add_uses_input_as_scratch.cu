// exercise: matrix_add
// expect: run|correctness
// message: changed its input
// An honest mistake: the sum is built in place in `b` (its const cast away)
// and then copied to `out` by a second kernel. The output is right, but the
// inputs are read-only.
#include "cudalings/matrix_add.h"

__global__ void add_in_place(const float *a, float *b, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] += a[i];
}

__global__ void copy_out(const float *b, float *out, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = b[i];
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    add_in_place<<<(n + 255) / 256, 256>>>(a, const_cast<float *>(b), n);
    copy_out<<<(n + 255) / 256, 256>>>(b, out, n);
}
