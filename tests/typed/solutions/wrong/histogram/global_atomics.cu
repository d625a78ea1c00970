// expect: performance
// Right, but every thread adds straight into the 256 bins in global memory:
// hundreds of thousands of atomics queue on 256 words, where the reference
// counts in shared memory and adds each block's 256 counts once.
#include "cudalings/histogram.h"

__global__ void histogram_kernel(const unsigned char *pixels, unsigned int *bins, int n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n; i += (size_t)gridDim.x * blockDim.x)
        atomicAdd(&bins[pixels[i]], 1u);
}

void histogram_launch(const unsigned char *pixels, unsigned int *bins, int n)
{
    cudaMemset(bins, 0, 256 * sizeof(unsigned int));
    int blocks = (n + 255) / 256;
    histogram_kernel<<<blocks < 1024 ? blocks : 1024, 256>>>(pixels, bins, n);
}
