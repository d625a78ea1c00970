// exercise: transpose
// expect: pass
// message: cases correct
// Legitimate and conflict-free without padding: the tile's columns are
// swizzled (element (r, c) stored at column c ^ r), so the 32 elements of one
// logical column fall in 32 different banks, in a 32x32 tile of 4 KiB.
#include "cudalings/transpose.h"

#define TILE 32

__global__ void transpose_swizzled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];

    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x ^ threadIdx.y] = in[(size_t)y * cols + x];
    __syncthreads();

    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y ^ threadIdx.x];
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, TILE);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_swizzled<<<grid, block>>>(in, out, rows, cols);
}
