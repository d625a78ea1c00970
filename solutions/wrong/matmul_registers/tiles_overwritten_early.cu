// expect: correctness
// sim-only
// No barrier after the multiply-adds: a fast thread loads the next step's
// tiles while others still read this step's. A GPU may get away with it; the
// simulator runs the threads in two orders.
#include "cudalings/matmul_registers.h"

#define BM 64 // rows of C per block
#define BN 64 // columns of C per block
#define BK 16 // the step along k
#define TM 4  // rows of C per thread
#define TN 4  // columns of C per thread
// 16 × 16 threads: (BM / TM) × (BN / TN)

__global__ void matmul_registers_kernel(const float *a, const float *b, float *c, int m, int k, int n)
{
    __shared__ float as[BK][BM + 1]; // as[q][r] = A[row0 + r][k0 + q]: A's tile turned on its side
    __shared__ float bs[BK][BN];     // bs[q][j] = B[k0 + q][col0 + j]

    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM][TN] = {};

    for (int k0 = 0; k0 < k; k0 += BK) {
        // the 256 threads load both tiles, 4 elements each, 0 past the edges of A and B
        for (int e = t; e < BM * BK; e += 256) {
            int r = e / BK, q = e % BK; // a warp reads 16 neighbours in each of two rows of A
            as[q][r] = row0 + r < m && k0 + q < k ? a[(size_t)(row0 + r) * k + k0 + q] : 0.0f;
            int q2 = e / BN, j = e % BN; // a warp reads 32 neighbours of one row of B
            bs[q2][j] = k0 + q2 < k && col0 + j < n ? b[(size_t)(k0 + q2) * n + col0 + j] : 0.0f;
        }
        __syncthreads();
        for (int q = 0; q < BK; q++) {
            float ra[TM], rb[TN];
            for (int i = 0; i < TM; i++)
                ra[i] = as[q][ty + 16 * i];
            for (int j = 0; j < TN; j++)
                rb[j] = bs[q][tx + 16 * j];
            for (int i = 0; i < TM; i++)
                for (int j = 0; j < TN; j++)
                    acc[i][j] += ra[i] * rb[j];
        }
    }

    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++) {
            int row = row0 + ty + 16 * i, col = col0 + tx + 16 * j;
            if (row < m && col < n)
                c[(size_t)row * n + col] = acc[i][j];
        }
}

void matmul_registers_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 block(BN / TN, BM / TM);
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    matmul_registers_kernel<<<grid, block>>>(a, b, c, m, k, n);
}
