// variant: stride 16, the DLI's uncoalesced case: neighbouring threads take elements 64 bytes apart, so a warp's load touches 32 sectors
#include "cudalings/coalescing.h"

#define STRIDE 16

// The same n additions as the reference. Picture the vector as a table of
// STRIDE columns and `height` rows: thread t takes row t % height of column
// t / height, so consecutive threads walk down a column, STRIDE floats apart.
__global__ void add_strided(const float *a, const float *b, float *out, int n)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t height = ((size_t)n + STRIDE - 1) / STRIDE;
    size_t i = (t % height) * STRIDE + t / height;
    if (t < height * STRIDE && i < (size_t)n)
        out[i] = a[i] + b[i];
}

void coalescing_launch(const float *a, const float *b, float *out, int n)
{
    int threads = 1024;
    size_t total = ((size_t)n + STRIDE - 1) / STRIDE * STRIDE;
    add_strided<<<(int)((total + threads - 1) / threads), threads>>>(a, b, out, n);
}
