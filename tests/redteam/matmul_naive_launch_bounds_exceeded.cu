// exercise: matmul_naive
// expect: run
// message: launch
// An honest mistake: the kernel promises __launch_bounds__(256) and is
// launched with 32 x 32 = 1024 threads per block. A GPU refuses the launch
// (too many threads for what the kernel was compiled for); a simulator that
// ignores the attribute would pass code that never runs on a GPU.
#include "cudalings/matmul_naive.h"

__global__ void __launch_bounds__(256) matmul_bounded(const float *a, const float *b, float *c, int m, int k, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    float sum = 0.0f;
    for (int i = 0; i < k; i++)
        sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
    c[(size_t)row * n + col] = sum;
}

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    matmul_bounded<<<dim3((n + 31) / 32, (m + 31) / 32), dim3(32, 32)>>>(a, b, c, m, k, n);
}
