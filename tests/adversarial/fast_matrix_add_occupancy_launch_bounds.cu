// exercise: matrix_add
// expect: pass
// message: cases correct
// Legitimate and fast: the block size from cudaOccupancyMaxPotentialBlockSize for a kernel compiled with
// __launch_bounds__(256, 4), checked against cudaFuncGetAttributes' maxThreadsPerBlock, after the queries
// a careful launcher makes (versions, memory, stream priorities, the dynamic shared memory a block may
// have, whether its pointers are device memory). The simulator answered 1024 threads for the bounded
// kernel, so the launch failed with too many resources, and lacked three of the queries.
#include <cstdio>
#include <cuda_runtime.h>
#include "cudalings/matrix_add.h"

__global__ void __launch_bounds__(256, 4) add(const float *a, const float *b, float *out, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    static int block = 0;
    if (block == 0) {
        int version = 0, least = 0, greatest = 0, min_grid = 0;
        size_t free_bytes = 0, total = 0, dyn = 0;
        cudaRuntimeGetVersion(&version);
        cudaMemGetInfo(&free_bytes, &total);
        cudaDeviceGetStreamPriorityRange(&least, &greatest);
        cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, add, 4, 256);
        cudaFuncAttributes attr;
        cudaFuncGetAttributes(&attr, add);
        cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, add, 0, 0);
        if (block <= 0 || block > attr.maxThreadsPerBlock)
            block = attr.maxThreadsPerBlock;
    }
    cudaPointerAttributes where;
    if (cudaPointerGetAttributes(&where, a) == cudaSuccess && where.type != cudaMemoryTypeDevice)
        fprintf(stderr, "matrix_add_launch: a is not device memory\n");
    size_t n = (size_t)rows * cols;
    add<<<(unsigned)((n + block - 1) / block), block>>>(a, b, out, n);
}
