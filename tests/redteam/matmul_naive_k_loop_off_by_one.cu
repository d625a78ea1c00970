// exercise: matmul_naive
// expect: run|correctness
// message: past the end|NaN
// An honest mistake: the dot product runs i <= k, one step too far: it reads
// a row of A one past its end, and past the end of B on the last row.
#include "cudalings/matmul_naive.h"

__global__ void matmul_one_more(const float *a, const float *b, float *c, int m, int k, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    float sum = 0.0f;
    for (int i = 0; i <= k; i++)
        sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
    c[(size_t)row * n + col] = sum;
}

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    matmul_one_more<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(a, b, c, m, k, n);
}
