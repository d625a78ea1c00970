// expect: correctness
// sim-only: on a GPU an unset register holds whatever it held, zero as often as not
// The dot product's accumulator is declared without a first value. On the
// simulator a local variable read before it is set holds a fill pattern
// (about -1.7e38 as a float), so every element comes out wrong and the
// message says where such a value comes from.
#include "cudalings/matmul_naive.h"

__global__ void matmul_unset_sum(const float *a, const float *b, float *c, int m, int k, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    float sum;
    for (int i = 0; i < k; i++)
        sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
    c[(size_t)row * n + col] = sum;
}

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    matmul_unset_sum<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(a, b, c, m, k, n);
}
