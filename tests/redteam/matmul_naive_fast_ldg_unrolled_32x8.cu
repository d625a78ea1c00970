// exercise: matmul_naive
// expect: pass
// message: cases correct
// Legitimate: the lesson's kernel with blocks of 32 x 8 (a warp reads 32
// neighbours of a row of B), __restrict__ and __ldg, the dot product
// unrolled by 4 with two accumulators, early return off the edge.
#include "cudalings/matmul_naive.h"

__global__ void __launch_bounds__(256)
matmul_ldg(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m, int k, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    const float *ar = a + (size_t)row * k;
    const float *bc = b + col;
    float s0 = 0.0f, s1 = 0.0f;
    int i = 0;
    #pragma unroll 2
    for (; i + 4 <= k; i += 4) {
        s0 += __ldg(&ar[i]) * __ldg(&bc[(size_t)i * n]);
        s1 += __ldg(&ar[i + 1]) * __ldg(&bc[(size_t)(i + 1) * n]);
        s0 += __ldg(&ar[i + 2]) * __ldg(&bc[(size_t)(i + 2) * n]);
        s1 += __ldg(&ar[i + 3]) * __ldg(&bc[(size_t)(i + 3) * n]);
    }
    for (; i < k; i++)
        s0 += ar[i] * bc[(size_t)i * n];
    c[(size_t)row * n + col] = s0 + s1;
}

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    matmul_ldg<<<dim3((n + 31) / 32, (m + 7) / 8), dim3(32, 8)>>>(a, b, c, m, k, n);
}
