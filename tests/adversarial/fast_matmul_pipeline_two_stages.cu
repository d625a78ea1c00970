// exercise: matmul
// expect: pass
// message: cases correct
// Legitimate: two stages of 16x16 tiles with cp.async (<cuda_pipeline.h>):
// the next pair of tiles is in flight while the current one is multiplied,
// __pipeline_wait_prior(1) waits only for the older stage.
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include "cudalings/matmul.h"

#define TILE 16

__device__ __forceinline__ void fetch(float (*at)[TILE], float (*bt)[TILE], const float *a, const float *b,
                                      int m, int k, int n, int row, int col, int t)
{
    int tx = threadIdx.x, ty = threadIdx.y;
    if (row < m && t + tx < k)
        __pipeline_memcpy_async(&at[ty][tx], &a[(size_t)row * k + t + tx], sizeof(float));
    else
        at[ty][tx] = 0.0f;
    if (t + ty < k && col < n)
        __pipeline_memcpy_async(&bt[ty][tx], &b[(size_t)(t + ty) * n + col], sizeof(float));
    else
        bt[ty][tx] = 0.0f;
    __pipeline_commit();
}

__global__ void mm_pipe(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c,
                        int m, int k, int n)
{
    __shared__ float at[2][TILE][TILE], bt[2][TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    fetch(at[0], bt[0], a, b, m, k, n, row, col, 0);
    int s = 0;
    for (int t = 0; t < k; t += TILE, s ^= 1) {
        if (t + TILE < k) {
            fetch(at[s ^ 1], bt[s ^ 1], a, b, m, k, n, row, col, t + TILE);
            __pipeline_wait_prior(1);
        } else {
            __pipeline_wait_prior(0);
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < TILE; i++)
            sum += at[s][threadIdx.y][i] * bt[s][i][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    mm_pipe<<<grid, block>>>(a, b, c, m, k, n);
}
