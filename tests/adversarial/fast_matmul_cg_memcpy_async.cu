// exercise: matmul
// expect: pass
// message: cases correct
// Legitimate and fast: 32x32 tiles copied into shared memory with
// cooperative_groups::memcpy_async, each warp four rows of each tile
// (tiled_partition), the part of a tile past the matrix's edge zeroed by the
// threads, then cg::wait(block); 32x8 threads, each four outputs of a column.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include "cudalings/matmul.h"

namespace cg = cooperative_groups;
#define TILE 32
#define ROWS 8

__global__ void __launch_bounds__(TILE * ROWS) mm_cg(const float *a, const float *b, float *c, int m, int k, int n)
{
    __shared__ float at[TILE][TILE], bt[TILE][TILE];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float acc[TILE / ROWS] = {};
    for (int t = 0; t < k; t += TILE) {
        int a_cols = min(TILE, k - t), b_cols = min(TILE, n - col0);
        for (int r = ty; r < TILE; r += ROWS) {
            // warp ty copies rows ty, ty + 8, ... of each tile, where the row exists
            if (row0 + r < m)
                cg::memcpy_async(warp, &at[r][0], a + (size_t)(row0 + r) * k + t, a_cols * sizeof(float));
            if (t + r < k)
                cg::memcpy_async(warp, &bt[r][0], b + (size_t)(t + r) * n + col0, b_cols * sizeof(float));
            if (row0 + r >= m || tx >= a_cols)
                at[r][tx] = 0.0f;
            if (t + r >= k || tx >= b_cols)
                bt[r][tx] = 0.0f;
        }
        cg::wait(block);
#pragma unroll 8
        for (int i = 0; i < TILE; i++) {
            float bv = bt[i][tx];
#pragma unroll
            for (int q = 0; q < TILE / ROWS; q++)
                acc[q] += at[ty + q * ROWS][i] * bv;
        }
        block.sync();
    }
#pragma unroll
    for (int q = 0; q < TILE / ROWS; q++) {
        int row = row0 + ty + q * ROWS, col = col0 + tx;
        if (row < m && col < n)
            c[(size_t)row * n + col] = acc[q];
    }
}

void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 block(TILE, ROWS), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    mm_cg<<<grid, block>>>(a, b, c, m, k, n);
}
