// exercise: matmul
// expect: pass
// message: cases correct
// Legitimate and fast: the lesson's 32 x 32 tiles, but blocks of 32 x 8
// threads, each thread computing four rows of C (ty, ty + 8, ty + 16,
// ty + 24): every element of B read from shared memory serves four products.
#include "cudalings/matmul.h"

#define TILE 32
#define ROWS 8

__global__ void matmul_4rows(const float *a, const float *b, float *c, int m, int k, int n)
{
    __shared__ float at[TILE][TILE + 1];
    __shared__ float bt[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx, row0 = blockIdx.y * TILE;
    float sum[TILE / ROWS] = {};
    for (int t = 0; t < k; t += TILE) {
        #pragma unroll
        for (int r = 0; r < TILE; r += ROWS) {
            int row = row0 + ty + r;
            at[ty + r][tx] = row < m && t + tx < k ? a[(size_t)row * k + t + tx] : 0.0f;
            bt[ty + r][tx] = t + ty + r < k && col < n ? b[(size_t)(t + ty + r) * n + col] : 0.0f;
        }
        __syncthreads();
        #pragma unroll 8
        for (int i = 0; i < TILE; i++) {
            float bv = bt[i][tx];
            #pragma unroll
            for (int r = 0; r < TILE / ROWS; r++)
                sum[r] += at[ty + r * ROWS][i] * bv;
        }
        __syncthreads();
    }
    #pragma unroll
    for (int r = 0; r < TILE / ROWS; r++) {
        int row = row0 + ty + r * ROWS;
        if (row < m && col < n)
            c[(size_t)row * n + col] = sum[r];
    }
}

void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    matmul_4rows<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), dim3(TILE, ROWS)>>>(a, b, c, m, k, n);
}
