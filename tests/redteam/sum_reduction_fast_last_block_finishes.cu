// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate and fast, one launch and deterministic: the CUDA samples'
// "threadFenceReduction". Each block writes its partial sum to a static
// __device__ array, __threadfence() makes it visible, and atomicInc on a
// __device__ counter tells the last block to finish, which adds the partial
// sums in a fixed order, writes *sum and resets the counter for the next call.
#include "cudalings/sum_reduction.h"

#define THREADS 512
#define MAX_BLOCKS 1024

__device__ float partials[MAX_BLOCKS];
__device__ unsigned int finished;

__device__ float block_sum(float v, float *shared)
{
    for (int m = 16; m > 0; m >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, m);
    if ((threadIdx.x & 31) == 0)
        shared[threadIdx.x >> 5] = v;
    __syncthreads();
    v = threadIdx.x < THREADS / 32 ? shared[threadIdx.x] : 0.0f;
    if (threadIdx.x < 32)
        for (int m = 16; m > 0; m >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, m);
    return v; // whole in thread 0
}

__global__ void reduce_once(const float *in, float *sum, int n)
{
    __shared__ float shared[THREADS / 32];
    __shared__ bool last;
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x; i < (size_t)n; i += (size_t)gridDim.x * THREADS)
        v += in[i];
    v = block_sum(v, shared);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = v;
        __threadfence();
        last = atomicInc(&finished, gridDim.x) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last)
        return;
    // the last block: every partial sum is visible
    float t = 0.0f;
    for (int b = threadIdx.x; b < gridDim.x; b += THREADS)
        t += ((volatile float *)partials)[b];
    __syncthreads();
    t = block_sum(t, shared);
    if (threadIdx.x == 0) {
        *sum = t;
        finished = 0;
    }
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    int blocks = (n + THREADS - 1) / THREADS;
    reduce_once<<<blocks < MAX_BLOCKS ? blocks : MAX_BLOCKS, THREADS>>>(in, sum, n);
}
