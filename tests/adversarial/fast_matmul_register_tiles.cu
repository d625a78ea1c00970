// exercise: matmul
// expect: pass
// message: cases correct
// Legitimate and fast: 64x64 tiles of C per block of 16x16 threads, each
// thread a 4x4 register tile; A and B tiles of 64x16 in shared memory.
#include "cudalings/matmul.h"
#define BM 64
#define BN 64
#define BK 16
__global__ void matmul_reg(const float *a, const float *b, float *c, int m, int k, int n)
{
    __shared__ float as[BK][BM];
    __shared__ float bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[4][4] = {};
    for (int p0 = 0; p0 < k; p0 += BK) {
        for (int e = t; e < BM * BK; e += 256) {
            int r = e / BK, q = e % BK;
            as[q][r] = row0 + r < m && p0 + q < k ? a[(size_t)(row0 + r) * k + p0 + q] : 0.0f;
            int q2 = e / BN, col = e % BN;
            bs[q2][col] = p0 + q2 < k && col0 + col < n ? b[(size_t)(p0 + q2) * n + col0 + col] : 0.0f;
        }
        __syncthreads();
        for (int q = 0; q < BK; q++) {
            float ra[4], rb[4];
            for (int i = 0; i < 4; i++) {
                ra[i] = as[q][ty * 4 + i];
                rb[i] = bs[q][tx * 4 + i];
            }
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++)
                    acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            int r = row0 + ty * 4 + i, col = col0 + tx * 4 + j;
            if (r < m && col < n)
                c[(size_t)r * n + col] = acc[i][j];
        }
}
void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    matmul_reg<<<dim3((n + BN - 1) / BN, (m + BM - 1) / BM), dim3(16, 16)>>>(a, b, c, m, k, n);
}
