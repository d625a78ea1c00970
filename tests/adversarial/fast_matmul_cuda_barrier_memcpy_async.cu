// exercise: matmul
// expect: pass
// message: cases correct
// Legitimate: the lesson's 32 x 32 tiles, met at a __shared__ cuda::barrier<thread_scope_block> (libcu++'s
// <cuda/barrier>, init() by thread 0) with arrive_and_wait() in place of __syncthreads(); a row of B's tile
// that lies whole inside B is copied by its warp with cuda::memcpy_async(warp, ..., barrier), the rest (and
// A's tile) element by element, zero past the edges. The simulator had no <cuda/barrier>: 'the simulator
// cannot run libcu++' (exit 3). Checked on the simulator only (no GPU this session).
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda_runtime.h>
#include "cudalings/matmul.h"

namespace cg = cooperative_groups;

#define TILE 32

__global__ void mm_barrier(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m, int k, int n)
{
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block); // a warp is one row of the block
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        as[ty][tx] = row < m && t + tx < k ? a[(size_t)row * k + t + tx] : 0.0f;
        if (t + ty < k && blockIdx.x * TILE + TILE <= n) {
            // the whole row of B's tile lies inside B: its warp copies it (the test is the same for the warp)
            cuda::memcpy_async(warp, &bs[ty][0], b + (size_t)(t + ty) * n + blockIdx.x * TILE, sizeof(float) * TILE, bar);
        } else {
            bs[ty][tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;
        }
        bar.arrive_and_wait();
#pragma unroll 8
        for (int i = 0; i < TILE; ++i)
            sum += as[ty][i] * bs[i][tx];
        bar.arrive_and_wait();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    mm_barrier<<<grid, block>>>(a, b, c, m, k, n);
}
