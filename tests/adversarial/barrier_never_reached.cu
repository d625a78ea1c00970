// exercise: tile_transpose
// expect: run
// message: __syncthreads
// sim-only
// Only some threads reach the barrier: a GPU may hang or go on silently; the
// simulator names the divergence.
#include "cudalings/tile_transpose.h"
__global__ void half_barrier(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    if (threadIdx.x < 16)
        __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}
void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    half_barrier<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 32)>>>(in, out, rows, cols);
}
