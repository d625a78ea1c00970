// expect: performance
// The naive transpose: reads coalesced, writes 32 sectors per warp.
#include "cudalings/tile_transpose.h"

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < cols && y < rows)
        out[(size_t)x * rows + y] = in[(size_t)y * cols + x];
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 32);
    dim3 grid((cols + 31) / 32, (rows + 31) / 32);
    transpose_naive<<<grid, block>>>(in, out, rows, cols);
}
