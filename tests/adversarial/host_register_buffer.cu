// exercise: transpose
// expect: compile
// message: cudaHostRegister
// Registers a malloc'd buffer with the GPU and lets the host transpose in it.
#include <cstdlib>
#include "cudalings/transpose.h"

__global__ void copy(const float *src, float *dst, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = src[i];
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    float *h = (float *)malloc(2 * n * sizeof(float));
    cudaHostRegister(h, 2 * n * sizeof(float), 0);
    copy<<<(n + 255) / 256, 256>>>(in, h, n);
    cudaDeviceSynchronize();
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            h[n + (size_t)c * rows + r] = h[(size_t)r * cols + c];
    copy<<<(n + 255) / 256, 256>>>(h + n, out, n);
    cudaDeviceSynchronize();
    cudaHostUnregister(h);
    free(h);
}
