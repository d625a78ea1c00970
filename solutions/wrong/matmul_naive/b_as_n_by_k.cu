// expect: correctness
// B read as if it were stored n × k (b[col * k + i]): right for a square B
// laid out that way, wrong for the k × n row-major B of the contract.
#include "cudalings/matmul_naive.h"

__global__ void matmul_naive_wrong_b(const float *a, const float *b, float *c, int m, int k, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    float sum = 0.0f;
    for (int i = 0; i < k; i++)
        sum += a[(size_t)row * k + i] * b[(size_t)col * k + i];
    c[(size_t)row * n + col] = sum;
}

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 block(16, 16);
    dim3 grid((n + 15) / 16, (m + 15) / 16);
    matmul_naive_wrong_b<<<grid, block>>>(a, b, c, m, k, n);
}
