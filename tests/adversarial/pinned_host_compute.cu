// exercise: matrix_add
// expect: compile
// message: calls 'cudaHostAlloc'
// Maps pinned host memory into the GPU's address space so host code could
// finish part of the result: refused before linking.
#include <cuda_runtime.h>
#include "cudalings/matrix_add.h"
__global__ void add(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}
void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    static float *host;
    int n = rows * cols;
    if (!host)
        cudaHostAlloc((void **)&host, 64 << 20, cudaHostAllocMapped);
    add<<<(n + 255) / 256, 256>>>(a, b, out, n);
}
