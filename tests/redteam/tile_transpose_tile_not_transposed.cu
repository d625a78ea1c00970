// exercise: tile_transpose
// expect: correctness
// message: transposed
// An honest mistake: the blocks move to their transposed place but each
// tile is written back as it was read (tile[ty][tx] instead of tile[tx][ty]).
#include "cudalings/tile_transpose.h"

__global__ void transpose_blocks_only(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = tile[threadIdx.y][threadIdx.x];
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    transpose_blocks_only<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 32)>>>(in, out, rows, cols);
}
