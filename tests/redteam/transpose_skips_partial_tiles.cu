// exercise: transpose
// expect: correctness
// message: never written
// An honest mistake: the grid counts whole tiles only (cols / 32, rows / 32),
// so the partial tiles at the right and bottom edges are never transposed.
#include "cudalings/transpose.h"

__global__ void transpose_whole_tiles(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 grid(cols / 32, rows / 32);
    if (grid.x && grid.y)
        transpose_whole_tiles<<<grid, dim3(32, 32)>>>(in, out, rows, cols);
}
