// exercise: tile_transpose
// expect: pass
// message: cases correct
// Legitimate and fast: a tile size as a template parameter, launched from a
// function template; 32x8 threads with __launch_bounds__, each moving
// TILE/8 elements through a padded tile with #pragma unroll.
#include <cuda_runtime.h>
#include "cudalings/tile_transpose.h"

template <int TILE, int ROWS>
__global__ void __launch_bounds__(TILE * ROWS) transpose_tiles(const float *__restrict__ in,
                                                               float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

template <int TILE, int ROWS>
void launch_tiles(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, ROWS), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_tiles<TILE, ROWS><<<grid, block>>>(in, out, rows, cols);
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    launch_tiles<32, 8>(in, out, rows, cols);
}
