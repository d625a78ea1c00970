// expect: performance
// The reference of `transpose`: 32 x 32 threads, one element each, through
// the same padded tile. Correct and conflict-free, but each thread has one
// load in flight and a block waits at a barrier of 1,024 threads: on an H100
// the coarsened reference ran 1.70x faster (bench/gold-h100.md).
#include "cudalings/transpose_coarse.h"

#define TILE 32

__global__ void transpose_kernel(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];

    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();

    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

void transpose_coarse_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, TILE);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_kernel<<<grid, block>>>(in, out, rows, cols);
}
