// exercise: transpose
// expect: pass
// message: cases correct
// Legitimate: a tile padded by 8 words, so a column read is an 8-way bank
// conflict, which costs 8% here (bench/bank-conflicts-h100.md: 1.08x the
// conflict-free time on an H100, within the 1.25x limit). The simulator's
// budget (4 conflicts per request) lets it pass, as the GPU does; 16-way fails.
#include "cudalings/transpose.h"

#define TILE 32

__global__ void transpose_kernel(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 8];

    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();

    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, TILE);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_kernel<<<grid, block>>>(in, out, rows, cols);
}
