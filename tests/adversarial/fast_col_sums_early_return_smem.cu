// exercise: col_sums
// expect: pass
// message: cases correct
// Legitimate: blocks of 32 columns x 8 row groups; threads past the last
// column return before the __syncthreads() that the others reach (on a GPU
// exited threads no longer hold a barrier up), partial sums through shared
// memory, grid-stride over the column blocks sized from the SM count.
#include <cstdio>
#include <cuda_runtime.h>
#include "cudalings/col_sums.h"

__global__ void __launch_bounds__(256) col_sums_kernel(const float *__restrict__ a, float *__restrict__ sums,
                                                       int rows, int cols)
{
    __shared__ float part[8][33];
    int col = blockIdx.x * 32 + threadIdx.x;
    if (col >= cols)
        return;
    float s = 0.0f;
#pragma unroll 4
    for (int r = threadIdx.y; r < rows; r += 8)
        s += __ldg(&a[(size_t)r * cols + col]);
    part[threadIdx.y][threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.y == 0) {
        float t = 0.0f;
#pragma unroll
        for (int k = 0; k < 8; k++)
            t += part[k][threadIdx.x];
        sums[col] = t;
    }
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    dim3 block(32, 8);
    dim3 grid((cols + 31) / 32);
    col_sums_kernel<<<grid, block>>>(a, sums, rows, cols);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        fprintf(stderr, "col_sums: %s\n", cudaGetErrorString(err));
}
