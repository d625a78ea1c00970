// exercise: matmul
// expect: pass
// message: cases correct
// Legitimate and fast: the classic SGEMM kernel. Each block of 256 threads
// computes a 128 x 128 tile of C, each thread an 8 x 8 register tile; A's
// 128 x 8 slice is stored transposed and both slices padded so that loads and
// stores of shared memory are conflict-free. Zero-filled at the edges, so any
// sizes work.
#include "cudalings/matmul.h"

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8

__global__ void __launch_bounds__(256) sgemm_128(const float *__restrict__ A, const float *__restrict__ B,
                                                 float *__restrict__ C, int M, int K, int N)
{
    __shared__ float As[BK][BM + 4];
    __shared__ float Bs[BK][BN + 4];
    int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM][TN] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        #pragma unroll
        for (int e = tid; e < BM * BK; e += 256) {
            int r = e / BK, c = e % BK;
            As[c][r] = row0 + r < M && k0 + c < K ? A[(size_t)(row0 + r) * K + k0 + c] : 0.0f;
        }
        #pragma unroll
        for (int e = tid; e < BK * BN; e += 256) {
            int r = e / BN, c = e % BN;
            Bs[r][c] = k0 + r < K && col0 + c < N ? B[(size_t)(k0 + r) * N + col0 + c] : 0.0f;
        }
        __syncthreads();
        #pragma unroll
        for (int kk = 0; kk < BK; kk++) {
            float a[TM], b[TN];
            #pragma unroll
            for (int i = 0; i < TM; i++)
                a[i] = As[kk][ty * TM + i];
            #pragma unroll
            for (int j = 0; j < TN; j++)
                b[j] = Bs[kk][tx * TN + j];
            #pragma unroll
            for (int i = 0; i < TM; i++)
                #pragma unroll
                for (int j = 0; j < TN; j++)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    #pragma unroll
    for (int i = 0; i < TM; i++) {
        int row = row0 + ty * TM + i;
        if (row >= M)
            break;
        #pragma unroll
        for (int j = 0; j < TN; j++) {
            int col = col0 + tx * TN + j;
            if (col < N)
                C[(size_t)row * N + col] = acc[i][j];
        }
    }
}

void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    sgemm_128<<<dim3((n + BN - 1) / BN, (m + BM - 1) / BM), 256>>>(a, b, c, m, k, n);
}
