// exercise: matmul
// expect: pass
// message: cases correct
// Legitimate and fast: 64 x 64 tiles of C with k-slices of 64, double
// buffered (the next slice is stored into the other buffer while this one is
// used: one barrier per slice), 68 KiB of dynamic shared memory, more than
// the 48 KiB a kernel gets without asking: cudaFuncSetAttribute raises the
// limit first. 256 threads, each a 4 x 4 register tile.
#include <cuda_runtime.h>
#include "cudalings/matmul.h"

#define T 64
#define BK 64
#define PAD 4
#define STAGE (2 * BK * (T + PAD)) // floats of one buffer: A^T slice and B slice

__device__ __forceinline__ void load_stage(float *s, const float *A, const float *B, int M, int K, int N, int row0,
                                           int col0, int k0)
{
    float *As = s, *Bs = s + BK * (T + PAD);
    for (int e = threadIdx.x; e < T * BK; e += 256) {
        int r = e / BK, c = e % BK; // A: row r of the tile, column c of the slice
        As[c * (T + PAD) + r] = row0 + r < M && k0 + c < K ? A[(size_t)(row0 + r) * K + k0 + c] : 0.0f;
        int br = e / T, bc = e % T; // B: row br of the slice, column bc of the tile
        Bs[br * (T + PAD) + bc] = k0 + br < K && col0 + bc < N ? B[(size_t)(k0 + br) * N + col0 + bc] : 0.0f;
    }
}

__global__ void __launch_bounds__(256) matmul_db(const float *A, const float *B, float *C, int M, int K, int N)
{
    extern __shared__ float smem[];
    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    int row0 = blockIdx.y * T, col0 = blockIdx.x * T;
    float acc[4][4] = {};
    int slices = (K + BK - 1) / BK;
    load_stage(smem, A, B, M, K, N, row0, col0, 0);
    __syncthreads();
    for (int s = 0; s < slices; s++) {
        if (s + 1 < slices)
            load_stage(smem + ((s + 1) & 1) * STAGE, A, B, M, K, N, row0, col0, (s + 1) * BK);
        const float *As = smem + (s & 1) * STAGE, *Bs = As + BK * (T + PAD);
        #pragma unroll 8
        for (int kk = 0; kk < BK; kk++) {
            float4 a = *reinterpret_cast<const float4 *>(&As[kk * (T + PAD) + ty * 4]);
            float4 b = *reinterpret_cast<const float4 *>(&Bs[kk * (T + PAD) + tx * 4]);
            float av[4] = { a.x, a.y, a.z, a.w }, bv[4] = { b.x, b.y, b.z, b.w };
            #pragma unroll
            for (int i = 0; i < 4; i++)
                #pragma unroll
                for (int j = 0; j < 4; j++)
                    acc[i][j] += av[i] * bv[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            int row = row0 + ty * 4 + i, col = col0 + tx * 4 + j;
            if (row < M && col < N)
                C[(size_t)row * N + col] = acc[i][j];
        }
}

void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    const int bytes = 2 * STAGE * sizeof(float);
    static bool raised;
    if (!raised)
        raised = cudaFuncSetAttribute(matmul_db, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) == cudaSuccess;
    matmul_db<<<dim3((n + T - 1) / T, (m + T - 1) / T), 256, bytes>>>(a, b, c, m, k, n);
}
