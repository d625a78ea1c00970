// exercise: col_sums
// expect: compile
// message: cudaHostAlloc
// Mapped pinned memory: the kernel copies the matrix into it, the host sums
// the columns, another kernel copies the sums out.
#include "cudalings/col_sums.h"

__global__ void copy(const float *src, float *dst, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = src[i];
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    float *host, *dev, *hs, *ds;
    cudaHostAlloc(&host, n * sizeof(float), cudaHostAllocMapped);
    cudaHostAlloc(&hs, cols * sizeof(float), cudaHostAllocMapped);
    cudaHostGetDevicePointer((void **)&dev, host, 0);
    cudaHostGetDevicePointer((void **)&ds, hs, 0);
    copy<<<(n + 255) / 256, 256>>>(a, dev, n);
    cudaDeviceSynchronize();
    for (int c = 0; c < cols; c++) {
        hs[c] = 0;
        for (int r = 0; r < rows; r++)
            hs[c] += host[(size_t)r * cols + c];
    }
    copy<<<(cols + 255) / 256, 256>>>(ds, sums, cols);
}
