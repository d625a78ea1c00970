// exercise: tile_transpose
// expect: correctness
// diagnosis: untransposed_tile
// message: tile of out holds the right values
// Each tile goes to the transposed block but is written back as it was read.
#include "cudalings/tile_transpose.h"

#define TILE 32

__global__ void tile_transpose_kernel(const float *in, float *out, int rows, int cols)
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
        out[(size_t)y * rows + x] = tile[threadIdx.y][threadIdx.x];
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, TILE);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    tile_transpose_kernel<<<grid, block>>>(in, out, rows, cols);
}
