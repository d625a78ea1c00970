// exercise: tile_transpose
// expect: compile
// message: initializer not allowed for __shared__ variable
// nvcc: rejects
// A __shared__ variable with an initializer, which nvcc refuses (shared
// memory is not initialized at a block's start).
#include "cudalings/tile_transpose.h"

__global__ void tr(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][33] = {};
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    tr<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 32)>>>(in, out, rows, cols);
}
