// exercise: matrix_add
// expect: compile
// message: __managed__ memory
// Stages the work in __managed__ memory, which the host can read and write:
// the sum would be computed on the host. Refused on both backends.
#include "cudalings/matrix_add.h"
__managed__ float staged[4096 * 4096];
__global__ void copy_out(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = staged[i];
}
__global__ void copy_in(const float *a, const float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        staged[i] = a[i] + b[i];
}
void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    int n = rows * cols;
    copy_in<<<(n + 255) / 256, 256>>>(a, b, n);
    copy_out<<<(n + 255) / 256, 256>>>(out, n);
}
