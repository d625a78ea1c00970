/*
 * matmul_registers — C = A · B with a tile of C in each thread's registers.
 *
 * A is m × k, B is k × n, C is m × n, all row-major. Any sizes ≥ 1 must work.
 * A block of 16 × 16 threads computes a 64 × 64 tile of C; thread (tx, ty)
 * keeps 4 × 4 of its elements in registers: rows ty + 16i and columns
 * tx + 16j, for i, j = 0 … 3. Per step of k it reads 4 values of A and 4 of B
 * from shared memory and does 16 multiply-adds with them, where `matmul`
 * reads 2 values per multiply-add. It must run within 1.25× of this
 * reference on your GPU. Lesson: slides/matmul_registers.md
 */
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
        // TODO: for each q of this step: copy this thread's TM values of A (as[q][ty + 16i]) and TN values of B (bs[q][tx + 16j]) into registers, then add all TM × TN products into acc
        __syncthreads();
    }

    // TODO: write this thread's TM × TN elements of C: acc[i][j] is C[row0 + ty + 16i][col0 + tx + 16j], written where it exists
    if (row0 + ty < m && col0 + tx < n)
        c[(size_t)(row0 + ty) * n + col0 + tx] = acc[0][0];
}

void matmul_registers_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 block(BN / TN, BM / TM);
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    matmul_registers_kernel<<<grid, block>>>(a, b, c, m, k, n);
}
