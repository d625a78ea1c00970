// exercise: tile_transpose
// expect: run|correctness
// message: __syncthreads|never written
// An honest mistake: threads off the edge of the input return before the
// barrier, so on edge tiles some threads never reach __syncthreads() and the
// ones that did return are missing from the write-back, whose edge is
// another one (the output is the transpose).
#include "cudalings/tile_transpose.h"

__global__ void transpose_early_exit(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    if (x >= cols || y >= rows)
        return;
    tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    transpose_early_exit<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 32)>>>(in, out, rows, cols);
}
