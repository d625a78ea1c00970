// exercise: matmul_naive
// expect: pass
// message: cases correct
// Legitimate: the sizes in __constant__ memory, copied there with
// cudaMemcpyToSymbol (host to GPU only), read by every thread; the k loop
// unrolled by a constexpr factor, a __noinline__ device helper for the tail.
#include <cuda_runtime.h>
#include "cudalings/matmul_naive.h"

__constant__ int dims[3]; // m, k, n
constexpr int UNROLL = 4;

__device__ __noinline__ float tail(const float *a, const float *b, int row, int col, int from)
{
    float s = 0.0f;
    for (int i = from; i < dims[1]; i++)
        s += a[(size_t)row * dims[1] + i] * b[(size_t)i * dims[2] + col];
    return s;
}

__global__ void mm_const(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    int m = dims[0], k = dims[1], n = dims[2];
    if (row >= m || col >= n)
        return;
    float s = 0.0f;
    int i = 0;
    for (; i + UNROLL <= k; i += UNROLL) {
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            s += a[(size_t)row * k + i + u] * b[(size_t)(i + u) * n + col];
    }
    c[(size_t)row * n + col] = s + tail(a, b, row, col, i);
}

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    int h[3] = { m, k, n };
    cudaMemcpyToSymbol(dims, h, sizeof(h));
    dim3 block(32, 8), grid((n + 31) / 32, (m + 7) / 8);
    mm_const<<<grid, block>>>(a, b, c);
}
