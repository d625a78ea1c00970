// expect: performance
// The tile transpose with a 32 x 32 tile: correct, but reading a column of the
// tile puts all 32 lanes of a warp in one bank.
#include "cudalings/transpose.h"

#define TILE 32

__global__ void transpose_conflicted(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];

    // Read: threadIdx.x walks along a row of `in`, so a warp reads 32 neighbours.
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

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, TILE);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_conflicted<<<grid, block>>>(in, out, rows, cols);
}
