// exercise: matmul_naive
// expect: correctness
// message: c[
// An honest mistake: the accumulator is declared but never set to zero, so
// each dot product starts from whatever the register or stack slot held.
#include "cudalings/matmul_naive.h"

__device__ __noinline__ float dot(const float *a, const float *b, int k, int n, int row, int col)
{
    float sum;
    for (int i = 0; i < k; i++)
        sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
    return sum;
}

__global__ void matmul_unset(const float *a, const float *b, float *c, int m, int k, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n)
        c[(size_t)row * n + col] = dot(a, b, k, n, row, col);
}

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    matmul_unset<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(a, b, c, m, k, n);
}
