// expect: correctness
// The private copy per block, but plain += where atomicAdd belongs: two
// threads that count the same value at once lose one of the two additions.
#include "cudalings/histogram.h"

__global__ void histogram_kernel(const unsigned char *pixels, unsigned int *bins, int n)
{
    __shared__ unsigned int local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n; i += (size_t)gridDim.x * blockDim.x)
        local[pixels[i]] += 1;
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        bins[b] += local[b];
}

void histogram_launch(const unsigned char *pixels, unsigned int *bins, int n)
{
    cudaMemset(bins, 0, 256 * sizeof(unsigned int));
    int blocks = (n + 255) / 256;
    histogram_kernel<<<blocks < 1024 ? blocks : 1024, 256>>>(pixels, bins, n);
}
