// expect: performance
// Correct, but x picks the row: the 32 threads of a warp take 32 rows of one
// column, so each load of A touches 32 rows (32 sectors) and each store of C
// is 32 rows apart, where x picking the column reads B and writes C in
// neighbours and reads one element of A for the whole warp.
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
