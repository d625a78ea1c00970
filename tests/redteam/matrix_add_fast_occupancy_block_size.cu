// exercise: matrix_add
// expect: pass
// message: cases correct
// Legitimate: the block size chosen by cudaOccupancyMaxPotentialBlockSize
// (the runtime's template helper), a flat 1D grid over the elements.
#include <cuda_runtime.h>
#include "cudalings/matrix_add.h"

__global__ void add_flat(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ out, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    static int block;
    if (!block) {
        int min_grid = 0;
        if (cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, add_flat, 0, 0) != cudaSuccess || block <= 0)
            block = 256;
    }
    size_t n = (size_t)rows * cols;
    add_flat<<<(unsigned)((n + block - 1) / block), block>>>(a, b, out, n);
}
