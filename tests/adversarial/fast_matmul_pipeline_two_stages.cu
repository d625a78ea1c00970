// exercise: matmul
// expect: pass
// message: cases correct
// Legitimate: two stages of 32x32 tiles with cp.async (<cuda_pipeline.h>):
// the next pair of tiles is in flight while the current one is multiplied,
// __pipeline_wait_prior(1) waits only for the older stage; 32x8 threads,
// each loading four elements of each tile and computing four outputs of a
// column. (A version with 16x16 tiles, one output per thread, ran at 1.41x
// the reference on an H100: too slow.)
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include "cudalings/matmul.h"

#define TILE 32
#define ROWS 8

__device__ __forceinline__ void fetch(float (*at)[TILE], float (*bt)[TILE], const float *a, const float *b,
                                      int m, int k, int n, int row0, int col0, int t)
{
    int tx = threadIdx.x;
#pragma unroll
    for (int r = threadIdx.y; r < TILE; r += ROWS) {
        if (row0 + r < m && t + tx < k)
            __pipeline_memcpy_async(&at[r][tx], &a[(size_t)(row0 + r) * k + t + tx], sizeof(float));
        else
            at[r][tx] = 0.0f;
        if (t + r < k && col0 + tx < n)
            __pipeline_memcpy_async(&bt[r][tx], &b[(size_t)(t + r) * n + col0 + tx], sizeof(float));
        else
            bt[r][tx] = 0.0f;
    }
    __pipeline_commit();
}

__global__ void __launch_bounds__(TILE * ROWS) mm_pipe(const float *__restrict__ a, const float *__restrict__ b,
                                                       float *__restrict__ c, int m, int k, int n)
{
    __shared__ float at[2][TILE][TILE], bt[2][TILE][TILE];
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE, tx = threadIdx.x, ty = threadIdx.y;
    float acc[TILE / ROWS] = {};
    fetch(at[0], bt[0], a, b, m, k, n, row0, col0, 0);
    int s = 0;
    for (int t = 0; t < k; t += TILE, s ^= 1) {
        if (t + TILE < k) {
            fetch(at[s ^ 1], bt[s ^ 1], a, b, m, k, n, row0, col0, t + TILE);
            __pipeline_wait_prior(1);
        } else {
            __pipeline_wait_prior(0);
        }
        __syncthreads();
#pragma unroll 8
        for (int i = 0; i < TILE; i++) {
            float bv = bt[s][i][tx];
#pragma unroll
            for (int q = 0; q < TILE / ROWS; q++)
                acc[q] += at[s][ty + q * ROWS][i] * bv;
        }
        __syncthreads();
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
    mm_pipe<<<grid, block>>>(a, b, c, m, k, n);
}
