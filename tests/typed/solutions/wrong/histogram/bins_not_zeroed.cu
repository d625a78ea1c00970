// expect: correctness
// Right in every other way, but nothing sets the bins to 0 first: the counts
// are added to whatever the bins held (the harness's poison).
#include "cudalings/histogram.h"

__global__ void histogram_kernel(const unsigned char *pixels, unsigned int *bins, int n)
{
    __shared__ unsigned int local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n; i += (size_t)gridDim.x * blockDim.x)
        atomicAdd(&local[pixels[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        atomicAdd(&bins[b], local[b]);
}

void histogram_launch(const unsigned char *pixels, unsigned int *bins, int n)
{
    int blocks = (n + 255) / 256;
    histogram_kernel<<<blocks < 1024 ? blocks : 1024, 256>>>(pixels, bins, n);
}
