// exercise: matmul
// expect: pass
// message: cases correct
// Legitimate and fast: 64x64 tiles of C, 16x16 threads with a 4x4 register
// tile each, K in chunks of 64 double-buffered in 66 KiB of dynamic shared
// memory (opted into with cudaFuncSetAttribute), tiles loaded with float4
// where the rows are 16-byte aligned and element by element otherwise.
#include <cuda_runtime.h>
#include "cudalings/matmul.h"

#define BM 64
#define BN 64
#define BK 64
#define PAD 4
#define NT 256
#define LOADS (BM * BK / 4 / NT)
#define A_TILE (BK * (BM + PAD))
#define B_TILE (BK * BN)

__device__ __forceinline__ void load_a(float4 (&r)[LOADS], const float *a, int m, int k, int row0, int t0, bool vec)
{
#pragma unroll
    for (int l = 0; l < LOADS; l++) {
        int idx = threadIdx.y * 16 + threadIdx.x + l * NT, row = row0 + idx / (BK / 4), col = t0 + idx % (BK / 4) * 4;
        float v[4];
        if (vec && row < m && col < k) {
            float4 q = *reinterpret_cast<const float4 *>(a + (size_t)row * k + col);
            v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
        } else {
            for (int q = 0; q < 4; q++)
                v[q] = row < m && col + q < k ? a[(size_t)row * k + col + q] : 0.0f;
        }
        r[l] = make_float4(v[0], v[1], v[2], v[3]);
    }
}

__device__ __forceinline__ void load_b(float4 (&r)[LOADS], const float *b, int k, int n, int t0, int col0, bool vec)
{
#pragma unroll
    for (int l = 0; l < LOADS; l++) {
        int idx = threadIdx.y * 16 + threadIdx.x + l * NT, row = t0 + idx / (BN / 4), col = col0 + idx % (BN / 4) * 4;
        float v[4];
        if (vec && row < k && col < n) {
            float4 q = *reinterpret_cast<const float4 *>(b + (size_t)row * n + col);
            v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
        } else {
            for (int q = 0; q < 4; q++)
                v[q] = row < k && col + q < n ? b[(size_t)row * n + col + q] : 0.0f;
        }
        r[l] = make_float4(v[0], v[1], v[2], v[3]);
    }
}

__device__ __forceinline__ void store(float *as, float *bs, const float4 (&ra)[LOADS], const float4 (&rb)[LOADS])
{
#pragma unroll
    for (int l = 0; l < LOADS; l++) {
        int idx = threadIdx.y * 16 + threadIdx.x + l * NT;
        int r = idx / (BK / 4), c = idx % (BK / 4) * 4; // A: row r of the tile, columns c..c+3 (stored transposed)
        as[(c + 0) * (BM + PAD) + r] = ra[l].x;
        as[(c + 1) * (BM + PAD) + r] = ra[l].y;
        as[(c + 2) * (BM + PAD) + r] = ra[l].z;
        as[(c + 3) * (BM + PAD) + r] = ra[l].w;
        r = idx / (BN / 4), c = idx % (BN / 4) * 4;
        *reinterpret_cast<float4 *>(&bs[r * BN + c]) = rb[l];
    }
}

__global__ void __launch_bounds__(NT) mm_db(const float *__restrict__ a, const float *__restrict__ b,
                                            float *__restrict__ c, int m, int k, int n)
{
    extern __shared__ __align__(16) float smem[];
    float *as[2] = { smem, smem + A_TILE }, *bs[2] = { smem + 2 * A_TILE, smem + 2 * A_TILE + B_TILE };
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN, tx = threadIdx.x, ty = threadIdx.y;
    bool vec_a = k % 4 == 0, vec_b = n % 4 == 0;
    float acc[4][4] = {};
    float4 ra[LOADS], rb[LOADS];
    load_a(ra, a, m, k, row0, 0, vec_a);
    load_b(rb, b, k, n, 0, col0, vec_b);
    store(as[0], bs[0], ra, rb);
    __syncthreads();
    int cur = 0;
    for (int t = 0; t < k; t += BK) {
        bool more = t + BK < k;
        if (more) {
            load_a(ra, a, m, k, row0, t + BK, vec_a);
            load_b(rb, b, k, n, t + BK, col0, vec_b);
        }
#pragma unroll 8
        for (int kk = 0; kk < BK; kk++) {
            float av[4], bv[4];
#pragma unroll
            for (int i = 0; i < 4; i++) {
                av[i] = as[cur][kk * (BM + PAD) + ty + 16 * i];
                bv[i] = bs[cur][kk * BN + tx + 16 * i];
            }
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++)
                    acc[i][j] += av[i] * bv[j];
        }
        if (more)
            store(as[cur ^ 1], bs[cur ^ 1], ra, rb);
        __syncthreads();
        cur ^= 1;
    }
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) {
            int row = row0 + ty + 16 * i, col = col0 + tx + 16 * j;
            if (row < m && col < n)
                c[(size_t)row * n + col] = acc[i][j];
        }
}

void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    int smem = (2 * A_TILE + 2 * B_TILE) * (int)sizeof(float);
    cudaFuncSetAttribute(mm_db, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    dim3 block(16, 16), grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    mm_db<<<grid, block, smem>>>(a, b, c, m, k, n);
}
