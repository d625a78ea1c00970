// exercise: matmul_registers
// expect: pass
// message: cases correct
// Legitimate and fast: 128 x 128 tiles of C per block of 256 threads, an 8 x 8 register tile each (two
// float4s of A's transposed tile and two of B's a step), tiles loaded as float4s where k % 4 == 0 (A) and
// n % 4 == 0 (B), element by element otherwise (four instances of a template), fmaf, an anonymous
// namespace and a static_assert on the tile shapes. It passed the simulator when written; kept as a
// fixture of the style. Checked on the simulator only (no GPU this session).
#include <cuda_runtime.h>
#include "cudalings/matmul_registers.h"

namespace {
constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
constexpr int THREADS = (BM / TM) * (BN / TN); // 256
static_assert(BM * BK == 4 * THREADS && BK * BN == 4 * THREADS, "one float4 of each tile a thread");

// A's tile kept transposed (as_t[q][r] = A[row0 + r][k0 + q]) so a thread reads its TM rows as two float4s;
// the loads are float4s where the rows allow it (k % 4 == 0 for A, n % 4 == 0 for B), floats otherwise
template <bool VecA, bool VecB>
__global__ void __launch_bounds__(THREADS) mm8x8(const float *__restrict__ a, const float *__restrict__ b,
                                                 float *__restrict__ c, int m, int k, int n)
{
    __shared__ __align__(16) float as_t[BK][BM];
    __shared__ __align__(16) float bs[BK][BN];
    const int t = threadIdx.x;
    const int tr = t / (BN / TN), tc = t % (BN / TN); // this thread's 8 x 8 block of C
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int ar = t / 2, aq = (t % 2) * 4;   // A: row ar of the tile, columns aq..aq+3
    const int bq = t / 32, bc = (t % 32) * 4; // B: row bq of the tile, columns bc..bc+3
    float acc[TM][TN] = {};
    float ra[TM], rb[TN];

    for (int k0 = 0; k0 < k; k0 += BK) {
        {
            const int r = row0 + ar, q = k0 + aq;
            float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
            if (VecA && r < m && q + 3 < k) {
                v = *reinterpret_cast<const float4 *>(a + (size_t)r * k + q);
            } else if (r < m) {
                v.x = q < k ? a[(size_t)r * k + q] : 0.f;
                v.y = q + 1 < k ? a[(size_t)r * k + q + 1] : 0.f;
                v.z = q + 2 < k ? a[(size_t)r * k + q + 2] : 0.f;
                v.w = q + 3 < k ? a[(size_t)r * k + q + 3] : 0.f;
            }
            as_t[aq][ar] = v.x;
            as_t[aq + 1][ar] = v.y;
            as_t[aq + 2][ar] = v.z;
            as_t[aq + 3][ar] = v.w;
        }
        {
            const int q = k0 + bq, cidx = col0 + bc;
            float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
            if (VecB && q < k && cidx + 3 < n) {
                v = *reinterpret_cast<const float4 *>(b + (size_t)q * n + cidx);
            } else if (q < k) {
                v.x = cidx < n ? b[(size_t)q * n + cidx] : 0.f;
                v.y = cidx + 1 < n ? b[(size_t)q * n + cidx + 1] : 0.f;
                v.z = cidx + 2 < n ? b[(size_t)q * n + cidx + 2] : 0.f;
                v.w = cidx + 3 < n ? b[(size_t)q * n + cidx + 3] : 0.f;
            }
            *reinterpret_cast<float4 *>(&bs[bq][bc]) = v;
        }
        __syncthreads();
#pragma unroll
        for (int q = 0; q < BK; ++q) {
            const float4 a0 = *reinterpret_cast<const float4 *>(&as_t[q][tr * TM]);
            const float4 a1 = *reinterpret_cast<const float4 *>(&as_t[q][tr * TM + 4]);
            const float4 b0 = *reinterpret_cast<const float4 *>(&bs[q][tc * TN]);
            const float4 b1 = *reinterpret_cast<const float4 *>(&bs[q][tc * TN + 4]);
            ra[0] = a0.x, ra[1] = a0.y, ra[2] = a0.z, ra[3] = a0.w, ra[4] = a1.x, ra[5] = a1.y, ra[6] = a1.z, ra[7] = a1.w;
            rb[0] = b0.x, rb[1] = b0.y, rb[2] = b0.z, rb[3] = b0.w, rb[4] = b1.x, rb[5] = b1.y, rb[6] = b1.z, rb[7] = b1.w;
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = row0 + tr * TM + i;
        if (r >= m)
            continue;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int cidx = col0 + tc * TN + j;
            if (cidx < n)
                c[(size_t)r * n + cidx] = acc[i][j];
        }
    }
}
} // namespace

void matmul_registers_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    const dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    const bool va = k % 4 == 0, vb = n % 4 == 0;
    if (va && vb)
        mm8x8<true, true><<<grid, THREADS>>>(a, b, c, m, k, n);
    else if (va)
        mm8x8<true, false><<<grid, THREADS>>>(a, b, c, m, k, n);
    else if (vb)
        mm8x8<false, true><<<grid, THREADS>>>(a, b, c, m, k, n);
    else
        mm8x8<false, false><<<grid, THREADS>>>(a, b, c, m, k, n);
}
