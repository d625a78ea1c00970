// exercise: tile_transpose
// expect: correctness|run
// message: __syncthreads
// sim-only
// An honest mistake: the tile is written back without waiting for the whole
// block to load it. A GPU may get lucky; the simulator must name the race.
#include "cudalings/tile_transpose.h"

__global__ void transpose_racy(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    transpose_racy<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 32)>>>(in, out, rows, cols);
}
