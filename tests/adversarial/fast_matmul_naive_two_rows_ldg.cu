// exercise: matmul_naive
// expect: pass
// message: cases correct
// Legitimate and fast: blocks of 32x8 threads, each thread two outputs of
// one column (rows y and y + 8), B read once for both with __ldg, A through
// __restrict__ pointers, the k loop unrolled by 4.
#include <cuda_runtime.h>
#include "cudalings/matmul_naive.h"

__global__ void __launch_bounds__(256) mm2(const float *__restrict__ a, const float *__restrict__ b,
                                           float *__restrict__ c, int m, int k, int n)
{
    int col = blockIdx.x * 32 + threadIdx.x;
    int row = blockIdx.y * 16 + threadIdx.y;
    if (col >= n || row >= m)
        return;
    bool second = row + 8 < m;
    const float *a0 = a + (size_t)row * k, *a1 = a + (size_t)(second ? row + 8 : row) * k;
    float s0 = 0.0f, s1 = 0.0f;
#pragma unroll 4
    for (int i = 0; i < k; i++) {
        float bv = __ldg(&b[(size_t)i * n + col]);
        s0 += a0[i] * bv;
        s1 += a1[i] * bv;
    }
    c[(size_t)row * n + col] = s0;
    if (second)
        c[(size_t)(row + 8) * n + col] = s1;
}

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 block(32, 8), grid((n + 31) / 32, (m + 15) / 16);
    mm2<<<grid, block>>>(a, b, c, m, k, n);
}
