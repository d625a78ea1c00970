// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate: a warp-synchronous tail in shared memory ordered by
// __syncwarp(), __reduce_add_sync to count the lanes that loaded anything
// (a block with no input skips its atomicAdd), __ballot_sync and
// __popc for the same count checked against it; cudaMemsetAsync zeroes *sum.
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"

#define THREADS 128

__global__ void tail_sync(const float *in, float *sum, int n)
{
    __shared__ float s[THREADS];
    unsigned t = threadIdx.x;
    float v = 0.0f;
    int loaded = 0;
    for (size_t i = (size_t)blockIdx.x * THREADS + t; i < (size_t)n; i += (size_t)gridDim.x * THREADS) {
        v += in[i];
        loaded = 1;
    }
    s[t] = v;
    __syncthreads();
    for (unsigned stride = THREADS / 2; stride > 32; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t < 32) {
        float w = s[t] + s[t + 32];
        __syncwarp();
        s[t] = w;
        __syncwarp();
        for (int off = 16; off > 0; off >>= 1) {
            if (t < (unsigned)off)
                w = s[t] + s[t + off];
            __syncwarp();
            if (t < (unsigned)off)
                s[t] = w;
            __syncwarp();
        }
        unsigned lanes = __reduce_add_sync(0xffffffffu, (unsigned)loaded);
        unsigned ballot = __popc(__ballot_sync(0xffffffffu, loaded));
        if (t == 0 && lanes > 0 && lanes == ballot)
            atomicAdd(sum, s[0]);
    }
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    cudaMemsetAsync(sum, 0, sizeof(float), 0);
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > 2048)
        blocks = 2048;
    tail_sync<<<blocks, THREADS>>>(in, sum, n);
}
