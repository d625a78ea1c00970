// exercise: matmul_registers
// expect: pass
// message: cases correct
// Legitimate and fast: the reference's 64 x 64 tiles and 4 x 4 outputs a thread, but each thread's four
// rows and four columns are neighbours, read from shared memory as one float4 each (__align__(16)
// tiles, A's padded by 4 floats so the float4s stay aligned), and C written as float4s where n % 4 == 0
// (a template flag, if constexpr), one float at a time at the right edge and otherwise.
#include <cuda_runtime.h>
#include "cudalings/matmul_registers.h"

#define BM 64
#define BN 64
#define BK 16
#define PAD 4

template <bool VEC_C>
__global__ void __launch_bounds__(256)
    mm(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int m, int k, int n)
{
    __shared__ __align__(16) float as[BK][BM + PAD]; // as[q][r] = A[row0 + r][k0 + q]
    __shared__ __align__(16) float bs[BK][BN];       // bs[q][j] = B[k0 + q][col0 + j]
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[4][4] = {};

    for (int k0 = 0; k0 < k; k0 += BK) {
#pragma unroll
        for (int e = t; e < BM * BK; e += 256) {
            int r = e / BK, q = e % BK;
            as[q][r] = row0 + r < m && k0 + q < k ? a[(size_t)(row0 + r) * k + k0 + q] : 0.0f;
            int q2 = e / BN, j = e % BN;
            bs[q2][j] = k0 + q2 < k && col0 + j < n ? b[(size_t)(k0 + q2) * n + col0 + j] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int q = 0; q < BK; q++) {
            float4 ra = *reinterpret_cast<const float4 *>(&as[q][4 * ty]);
            float4 rb = *reinterpret_cast<const float4 *>(&bs[q][4 * tx]);
            float av[4] = { ra.x, ra.y, ra.z, ra.w }, bv[4] = { rb.x, rb.y, rb.z, rb.w };
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++)
                    acc[i][j] += av[i] * bv[j];
        }
        __syncthreads();
    }

    int row = row0 + 4 * ty, col = col0 + 4 * tx;
    for (int i = 0; i < 4 && row + i < m; i++) {
        float *crow = c + (size_t)(row + i) * n;
        if constexpr (VEC_C) {
            if (col + 3 < n) {
                *reinterpret_cast<float4 *>(crow + col) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
                continue;
            }
        }
        for (int j = 0; j < 4; j++)
            if (col + j < n)
                crow[col + j] = acc[i][j];
    }
}

void matmul_registers_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 block(16, 16), grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    if (n % 4 == 0)
        mm<true><<<grid, block>>>(a, b, c, m, k, n);
    else
        mm<false><<<grid, block>>>(a, b, c, m, k, n);
}
