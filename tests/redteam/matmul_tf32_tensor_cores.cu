// exercise: matmul
// expect: correctness
// message: expected
// gpu-only
// An honest mistake by a student who knows about tensor cores: TF32 wmma
// (16 x 16 x 8 fragments, inputs rounded to TF32's 10-bit mantissa) is far
// faster than FP32 but about 1e-3 accurate per product, well outside the
// exercise's 1e-5 tolerance: wrong, however fast. Sizes not multiples of 16
// fall back to a plain kernel.
#include <cuda_runtime.h>
#include <mma.h>
#include "cudalings/matmul.h"
using namespace nvcuda;

__global__ void plain(const float *a, const float *b, float *c, int m, int k, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    float s = 0.0f;
    for (int i = 0; i < k; i++)
        s += a[(size_t)row * k + i] * b[(size_t)i * n + col];
    c[(size_t)row * n + col] = s;
}

__global__ void tf32(const float *a, const float *b, float *c, int m, int k, int n)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int tiles_n = n / 16, tr = warp / tiles_n, tc = warp % tiles_n;
    if (tr * 16 >= m)
        return;
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int p = 0; p < k; p += 8) {
        wmma::load_matrix_sync(fa, a + (size_t)tr * 16 * k + p, k);
        wmma::load_matrix_sync(fb, b + (size_t)p * n + tc * 16, n);
        for (int e = 0; e < fa.num_elements; e++)
            fa.x[e] = wmma::__float_to_tf32(fa.x[e]);
        for (int e = 0; e < fb.num_elements; e++)
            fb.x[e] = wmma::__float_to_tf32(fb.x[e]);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c + (size_t)tr * 16 * n + tc * 16, acc, n, wmma::mem_row_major);
}

void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    if (m % 16 || n % 16 || k % 8) {
        plain<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(a, b, c, m, k, n);
        return;
    }
    size_t warps = (size_t)(m / 16) * (n / 16);
    tf32<<<(unsigned)((warps * 32 + 255) / 256), 256>>>(a, b, c, m, k, n);
}
