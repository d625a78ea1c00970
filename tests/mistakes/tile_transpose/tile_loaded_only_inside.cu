// exercise: tile_transpose
// expect: correctness
// diagnosis: uninitialized
// message: no thread
// sim-only
// Blocks of 32x8 threads, each meant to move four rows of the tile: the
// write-out loops over them, but the load was left at one row per thread, so
// rows 8-31 of the tile are never stored and whatever shared memory held is
// copied out. The simulator fills shared memory with a marked NaN and says
// where the wrong values came from.
#include "cudalings/tile_transpose.h"

#define TILE 32
#define ROWS 8

__global__ void tile_transpose_kernel(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];

    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();

    x = blockIdx.y * TILE + threadIdx.x;
    for (int j = 0; j < TILE; j += ROWS) {
        y = blockIdx.x * TILE + threadIdx.y + j;
        if (x < rows && y < cols)
            out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, ROWS);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    tile_transpose_kernel<<<grid, block>>>(in, out, rows, cols);
}
