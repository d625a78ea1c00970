/*
 * tile_transpose — transpose a matrix through a tile in shared memory, so
 * that both the reads and the writes to global memory are coalesced.
 *
 * `in` is rows × cols, row-major; `out` is cols × rows: out[c][r] = in[r][c].
 * Any rows ≥ 1 and cols ≥ 1 must work. Lesson: slides/tile_transpose.md
 */
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

    // TODO: wait until the whole tile is loaded, then write it back transposed: block (bx, by) of `in` becomes block (by, bx) of `out`, and threadIdx.x must walk along a row of `out`
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, TILE);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    tile_transpose_kernel<<<grid, block>>>(in, out, rows, cols);
}
