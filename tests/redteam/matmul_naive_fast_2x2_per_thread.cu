// exercise: matmul_naive
// expect: pass
// message: cases correct
// Legitimate and fast: still no shared memory, but each thread of a 16 x 16
// block computes a 2 x 2 block of C (rows r and r + 16, columns c and
// c + 16 of a 32 x 32 tile), so every element of A and B it reads serves
// two products.
#include "cudalings/matmul_naive.h"

__global__ void matmul_2x2(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m,
                           int k, int n)
{
    int col = blockIdx.x * 32 + threadIdx.x, row = blockIdx.y * 32 + threadIdx.y;
    bool c0 = col < n, c1 = col + 16 < n, r0 = row < m, r1 = row + 16 < m;
    float s00 = 0.0f, s01 = 0.0f, s10 = 0.0f, s11 = 0.0f;
    for (int i = 0; i < k; i++) {
        float a0 = r0 ? a[(size_t)row * k + i] : 0.0f;
        float a1 = r1 ? a[(size_t)(row + 16) * k + i] : 0.0f;
        float b0 = c0 ? b[(size_t)i * n + col] : 0.0f;
        float b1 = c1 ? b[(size_t)i * n + col + 16] : 0.0f;
        s00 += a0 * b0;
        s01 += a0 * b1;
        s10 += a1 * b0;
        s11 += a1 * b1;
    }
    if (r0 && c0)
        c[(size_t)row * n + col] = s00;
    if (r0 && c1)
        c[(size_t)row * n + col + 16] = s01;
    if (r1 && c0)
        c[(size_t)(row + 16) * n + col] = s10;
    if (r1 && c1)
        c[(size_t)(row + 16) * n + col + 16] = s11;
}

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    matmul_2x2<<<dim3((n + 31) / 32, (m + 31) / 32), dim3(16, 16)>>>(a, b, c, m, k, n);
}
