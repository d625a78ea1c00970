// exercise: matmul_naive
// expect: pass
// message: cases correct
// Legitimate and fast: one output a thread, 32 x 8 blocks (a warp is 32 neighbours of a row of C), the dot
// product unrolled by 4 with fmaf, and nvcc's compile hints a tuned kernel carries: __maxnreg__(64) where
// __launch_bounds__ would stand (CUDA 12.4), __inline_hint__ on its helper. The simulator knew neither: g++
// read __maxnreg__(64) as a declaration and the file did not compile (exit 3), and its rewriter took
// __maxnreg__ for the kernel's name. Checked on the simulator only (no GPU this session).
#include <cuda_runtime.h>
#include "cudalings/matmul_naive.h"

__device__ __inline_hint__ float dot4(const float *__restrict__ arow, const float *__restrict__ b, int i, int n, int col)
{
    float s = arow[i] * b[(size_t)i * n + col];
    s = fmaf(arow[i + 1], b[(size_t)(i + 1) * n + col], s);
    s = fmaf(arow[i + 2], b[(size_t)(i + 2) * n + col], s);
    return fmaf(arow[i + 3], b[(size_t)(i + 3) * n + col], s);
}

__global__ void __maxnreg__(64) mm_hints(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c,
                                         int m, int k, int n)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    const float *arow = a + (size_t)row * k;
    float sum = 0.0f;
    int i = 0;
    for (; i + 4 <= k; i += 4)
        sum += dot4(arow, b, i, n, col);
    for (; i < k; ++i)
        sum = fmaf(arow[i], b[(size_t)i * n + col], sum);
    c[(size_t)row * n + col] = sum;
}

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    const dim3 block(32, 8), grid((n + 31) / 32, (m + 7) / 8);
    mm_hints<<<grid, block>>>(a, b, c, m, k, n);
}
