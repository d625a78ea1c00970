// exercise: matmul_naive
// expect: pass
// message: cases correct
// Legitimate: the lesson's one-thread-per-element kernel with the largest
// block there is, 32 x 32 = 1024 threads: each warp reads one element of A
// (a broadcast) and 32 neighbours of B per step, and a block's 32 rows and
// 32 columns share what the L1 cache holds. Half a block idles on edge tiles.
#include "cudalings/matmul_naive.h"

__global__ void __launch_bounds__(1024) matmul_1024(const float *a, const float *b, float *c, int m, int k, int n)
{
    int col = blockIdx.x * 32 + threadIdx.x;
    int row = blockIdx.y * 32 + threadIdx.y;
    if (row >= m || col >= n)
        return;
    float sum = 0.0f;
    for (int i = 0; i < k; i++)
        sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
    c[(size_t)row * n + col] = sum;
}

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    matmul_1024<<<dim3((n + 31) / 32, (m + 31) / 32), dim3(32, 32)>>>(a, b, c, m, k, n);
}
