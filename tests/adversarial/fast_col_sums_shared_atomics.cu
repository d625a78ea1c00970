// exercise: col_sums
// expect: pass
// message: cases correct
// Legitimate and fast: blocks of 32 columns x 8 groups of rows, each thread a strided share of its column's
// rows (coalesced: a warp reads 32 neighbours of one row), the groups met with atomicAdd on a __shared__
// float, then one plain store a column. The shared total's rounding follows the order of the adds, on a GPU
// too: the simulator's order check took the stored word's difference between its two orders (4e-4 of a
// column sum that cancels to near zero) for a race. Checked on the simulator only (no GPU this session).
#include <cuda_runtime.h>
#include "cudalings/col_sums.h"

#define COLS_PER_BLOCK 32
#define ROW_GROUPS 8

// 32 columns x 8 groups of rows per block; the groups meet with atomicAdd in shared memory
__global__ void col_sums_atomic_smem(const float *__restrict__ a, float *__restrict__ sums, int rows, int cols)
{
    __shared__ float acc[COLS_PER_BLOCK];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int col = blockIdx.x * COLS_PER_BLOCK + tx;
    if (ty == 0)
        acc[tx] = 0.0f;
    __syncthreads();
    if (col < cols) {
        float s = 0.0f;
        for (int r = ty; r < rows; r += ROW_GROUPS)
            s += a[(size_t)r * cols + col];
        atomicAdd(&acc[tx], s);
    }
    __syncthreads();
    if (ty == 0 && col < cols)
        sums[col] = acc[tx];
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    dim3 block(COLS_PER_BLOCK, ROW_GROUPS);
    dim3 grid((cols + COLS_PER_BLOCK - 1) / COLS_PER_BLOCK);
    col_sums_atomic_smem<<<grid, block>>>(a, sums, rows, cols);
}
