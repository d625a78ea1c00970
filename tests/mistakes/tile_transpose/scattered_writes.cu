// exercise: tile_transpose
// expect: performance
// diagnosis: uncoalesced
// message: global stores touch
// No tile on the way out: each thread writes its element straight to its
// transposed place, so a warp's 32 stores land in 32 rows of out.
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
    if (x < cols && y < rows)
        out[(size_t)x * rows + y] = tile[threadIdx.y][threadIdx.x];
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, TILE);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    tile_transpose_kernel<<<grid, block>>>(in, out, rows, cols);
}
