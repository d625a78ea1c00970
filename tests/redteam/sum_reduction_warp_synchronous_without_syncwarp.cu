// exercise: sum_reduction
// expect: correctness|run
// message: __syncwarp|order|shared-memory word
// sim-only
// An honest mistake from old course notes: the last six steps of the tree
// "unrolled for the last warp" through a volatile pointer with no barrier
// and no __syncwarp(). Since Volta the threads of a warp need not run in
// lock-step, so this is a race; the simulator must say so.
#include "cudalings/sum_reduction.h"

__device__ void warp_reduce(volatile float *p, int t)
{
    p[t] += p[t + 32];
    p[t] += p[t + 16];
    p[t] += p[t + 8];
    p[t] += p[t + 4];
    p[t] += p[t + 2];
    p[t] += p[t + 1];
}

__global__ void reduce(const float *in, float *out, int n)
{
    __shared__ float part[256];
    float v = 0.0f;
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256)
        v += in[i];
    part[threadIdx.x] = v;
    __syncthreads();
    for (int s = 128; s > 32; s >>= 1) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x < 32)
        warp_reduce(part, threadIdx.x);
    if (threadIdx.x == 0)
        out[blockIdx.x] = part[0];
}

__device__ float partials[1024];

void sum_reduction_launch(const float *in, float *sum, int n)
{
    float *p;
    cudaGetSymbolAddress((void **)&p, partials);
    int blocks = (n + 255) / 256;
    if (blocks > 1024)
        blocks = 1024;
    reduce<<<blocks, 256>>>(in, p, n);
    reduce<<<1, 256>>>(p, sum, blocks);
}
