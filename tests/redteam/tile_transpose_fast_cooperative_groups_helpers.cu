// exercise: tile_transpose
// expect: pass
// message: cases correct
// Legitimate: cooperative groups' this_thread_block().sync() for the
// barrier, __host__ __device__ constexpr helpers for the index arithmetic,
// a static_assert on the tile's shape, and a debugging printf in the kernel
// behind a flag that is off.
#include <cooperative_groups.h>
#include <cstdio>
#include "cudalings/tile_transpose.h"
namespace cg = cooperative_groups;

constexpr int TILE = 32, ROWS = 8;
static_assert(TILE % ROWS == 0, "each thread moves TILE / ROWS elements");
#define DEBUG_TRANSPOSE 0

__host__ __device__ constexpr int tiles(int extent) { return (extent + TILE - 1) / TILE; }
__host__ __device__ inline size_t at(int row, int col, int width) { return (size_t)row * width + col; }

__global__ void transpose_cg(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    cg::thread_block block = cg::this_thread_block();
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += ROWS)
        if (x < cols && y + k < rows)
            tile[threadIdx.y + k][threadIdx.x] = in[at(y + k, x, cols)];
    block.sync();
    if (DEBUG_TRANSPOSE && block.thread_rank() == 0)
        printf("block (%d, %d) loaded\n", blockIdx.x, blockIdx.y);
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += ROWS)
        if (x < rows && y + k < cols)
            out[at(y + k, x, rows)] = tile[threadIdx.x][threadIdx.y + k];
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    transpose_cg<<<dim3(tiles(cols), tiles(rows)), dim3(TILE, ROWS)>>>(in, out, rows, cols);
}
