// expect: correctness
// The grid is n / 16 by m / 16 blocks, rounded down: the last columns and
// rows of C, past the last whole block, are never computed.
#include "cudalings/matmul_naive.h"

__global__ void matmul_naive_short_grid(const float *a, const float *b, float *c, int m, int k, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
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
    dim3 grid(n / 16 > 0 ? n / 16 : 1, m / 16 > 0 ? m / 16 : 1);
    matmul_naive_short_grid<<<grid, block>>>(a, b, c, m, k, n);
}
