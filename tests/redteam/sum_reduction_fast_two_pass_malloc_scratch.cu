// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate and fast: two launches, as the lesson does, but the partial
// sums go to a scratch buffer from cudaMalloc (made on the first call and
// kept), the first pass takes 4 elements per thread per step, and the second
// pass is one block of 1024 threads reducing with warp shuffles.
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"

#define BLOCKS 2048

__device__ __forceinline__ float warp_reduce(float v)
{
    for (int m = 16; m; m >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, m);
    return v;
}

template <int THREADS>
__global__ void __launch_bounds__(THREADS) partial_pass(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float warps[THREADS / 32];
    float v = 0.0f;
    size_t stride = (size_t)gridDim.x * THREADS;
    size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x;
    for (; i + 3 * stride < (size_t)n; i += 4 * stride)
        v += (__ldg(&in[i]) + __ldg(&in[i + stride])) + (__ldg(&in[i + 2 * stride]) + __ldg(&in[i + 3 * stride]));
    for (; i < (size_t)n; i += stride)
        v += in[i];
    v = warp_reduce(v);
    if ((threadIdx.x & 31) == 0)
        warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < THREADS / 32 ? warps[threadIdx.x] : 0.0f;
        v = warp_reduce(v);
        if (threadIdx.x == 0)
            out[blockIdx.x] = v;
    }
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    static float *scratch;
    if (!scratch && cudaMalloc(&scratch, BLOCKS * sizeof(float)) != cudaSuccess)
        return;
    int blocks = (n + 255) / 256;
    if (blocks > BLOCKS)
        blocks = BLOCKS;
    partial_pass<256><<<blocks, 256>>>(in, scratch, n);
    partial_pass<1024><<<1, 1024>>>(scratch, sum, blocks);
}
