// expect: performance
// One thread per output element, every operand from global memory.
#include "cudalings/matmul.h"

__global__ void matmul_naive(const float *a, const float *b, float *c, int m, int k, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float sum = 0.0f;
    for (int i = 0; i < k; i++)
        sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
    c[(size_t)row * n + col] = sum;
}

void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 block(16, 16);
    dim3 grid((n + 15) / 16, (m + 15) / 16);
    matmul_naive<<<grid, block>>>(a, b, c, m, k, n);
}
