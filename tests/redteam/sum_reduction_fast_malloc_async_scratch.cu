// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate and fast: the partial sums' scratch comes from the stream-ordered
// allocator (cudaMallocAsync / cudaFreeAsync on the launch's stream, from the
// device's default pool: device memory, allocated and freed in stream order
// at no synchronisation cost), then two passes with warp shuffles.
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"

#define THREADS 256
#define BLOCKS 1024

__device__ float warp_sum(float v)
{
    for (int m = 16; m; m >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, m);
    return v;
}

__global__ void pass(const float *in, float *out, int n)
{
    __shared__ float warps[THREADS / 32];
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x; i < (size_t)n; i += (size_t)gridDim.x * THREADS)
        v += in[i];
    v = warp_sum(v);
    if ((threadIdx.x & 31) == 0)
        warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = warp_sum(threadIdx.x < THREADS / 32 ? warps[threadIdx.x] : 0.0f);
        if (threadIdx.x == 0)
            out[blockIdx.x] = v;
    }
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > BLOCKS)
        blocks = BLOCKS;
    float *partials = nullptr;
    if (cudaMallocAsync((void **)&partials, blocks * sizeof(float), 0) != cudaSuccess)
        return;
    pass<<<blocks, THREADS>>>(in, partials, n);
    pass<<<1, THREADS>>>(partials, sum, blocks);
    cudaFreeAsync(partials, 0);
}
