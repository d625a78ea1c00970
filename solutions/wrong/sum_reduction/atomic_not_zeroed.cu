// expect: correctness
// Blocks add their sums to *sum with atomicAdd, but nothing set *sum to 0
// first: it starts as whatever was there (the grader's NaN), and so ends.
#include "cudalings/sum_reduction.h"

__global__ void sum_into_garbage(const float *in, float *sum, int n)
{
    __shared__ float partial[256];
    float mine = 0.0f;
    for (size_t i = (size_t)blockIdx.x * 256 + threadIdx.x; i < (size_t)n; i += (size_t)gridDim.x * 256)
        mine += in[i];
    partial[threadIdx.x] = mine;
    __syncthreads();
    for (int stride = 128; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(sum, partial[0]);
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    int blocks = (n + 255) / 256 < 1024 ? (n + 255) / 256 : 1024;
    sum_into_garbage<<<blocks, 256>>>(in, sum, n);
}
