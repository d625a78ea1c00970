// exercise: matmul
// expect: pass
// message: cases correct
// Legitimate: 32x32 tiles copied into shared memory with
// cooperative_groups::memcpy_async, one warp per tile row (tiled_partition),
// the part of a tile past the matrix's edge zeroed by the threads, then
// cg::wait(block) before the products.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include "cudalings/matmul.h"

namespace cg = cooperative_groups;
#define TILE 32

__global__ void mm_cg(const float *a, const float *b, float *c, int m, int k, int n)
{
    __shared__ float at[TILE][TILE], bt[TILE][TILE];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        int a_cols = min(TILE, k - t), b_cols = min(TILE, n - blockIdx.x * TILE);
        // warp ty copies row ty of each tile, where the row exists
        if (row < m)
            cg::memcpy_async(warp, &at[ty][0], a + (size_t)row * k + t, a_cols * sizeof(float));
        if (t + ty < k)
            cg::memcpy_async(warp, &bt[ty][0], b + (size_t)(t + ty) * n + blockIdx.x * TILE, b_cols * sizeof(float));
        if (row >= m || tx >= a_cols)
            at[ty][tx] = 0.0f;
        if (t + ty >= k || tx >= b_cols)
            bt[ty][tx] = 0.0f;
        cg::wait(block);
        for (int i = 0; i < TILE; i++)
            sum += at[ty][i] * bt[i][tx];
        block.sync();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    mm_cg<<<grid, block>>>(a, b, c, m, k, n);
}
