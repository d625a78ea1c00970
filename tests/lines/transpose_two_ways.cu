// A transpose done twice, each way with one costly line, for the heat map:
// the lines marked "heat: hot" must be the hot ones, and no other.
// The naive kernel reads a row (coalesced) and writes a column (32 sectors
// per request); the tiled one reads its 32x32 tile by columns (a 32-way
// bank conflict) and writes rows (coalesced). Both write the same answer.
#include "cudalings/transpose.h"

#define TILE 32

__global__ void naive(const float *in, float *out, int rows, int cols)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x >= cols || y >= rows)
        return;
    float v = in[(size_t)y * cols + x];
    out[(size_t)x * rows + y] = v; // heat: hot (a column of out: a sector per lane)
}

__global__ void tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    float w = 0;
    if (x < rows && y < cols)
        w = tile[threadIdx.x][threadIdx.y]; // heat: hot (a column of the tile: one bank)
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = w;
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, TILE);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    naive<<<grid, block>>>(in, out, rows, cols);
    tiled<<<grid, block>>>(in, out, rows, cols);
}
