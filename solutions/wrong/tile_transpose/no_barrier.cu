// expect: correctness
// sim-only
// The barrier between filling the tile and reading it back is missing. On a
// GPU this can still come out right by luck of timing; the simulator runs the
// threads of a block in two orders and sees the result change.
#include "cudalings/tile_transpose.h"

__global__ void tile_transpose_racy(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][32];
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
    dim3 block(32, 32);
    dim3 grid((cols + 31) / 32, (rows + 31) / 32);
    tile_transpose_racy<<<grid, block>>>(in, out, rows, cols);
}
