// exercise: transpose
// expect: performance
// diagnosis: bank_conflicts
// message: bank conflicts per request
// sim-only
// Padded, but by 16 words: a column of the tile is 48 words a row apart, so
// 16 of its 32 elements share each bank in use. A 16-way conflict costs 28%
// on an H100 (bench/bank-conflicts-h100.md), over the 1.25x limit, though
// close enough that GPU noise may land either side: the simulator's budget
// decides here. Pad by one word.
#include "cudalings/transpose.h"

#define TILE 32

__global__ void transpose_kernel(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 16];

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
