// expect: performance
// Correct, but x picks the row: in a 16 x 16 block a warp holds 16 rows and
// 2 columns of C, so each load of A touches 16 rows (16 sectors) and each
// store of C lands in 16 rows, where x picking the column reads A as two
// broadcast addresses and B and C as 16 neighbours.
#include "cudalings/matmul_naive.h"

__global__ void matmul_naive_swapped(const float *a, const float *b, float *c, int m, int k, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    float sum = 0.0f;
    for (int i = 0; i < k; i++)
        sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
    c[(size_t)row * n + col] = sum;
}

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 block(16, 16);
    dim3 grid((m + 15) / 16, (n + 15) / 16);
    matmul_naive_swapped<<<grid, block>>>(a, b, c, m, k, n);
}
