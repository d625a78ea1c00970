// expect: correctness
// The grid is capped at 1024 blocks of 256 threads, but each thread reads
// only one element: past the first 262,144 inputs nothing is added.
#include "cudalings/sum_reduction.h"

__device__ float partials_seen[1024];

__global__ void sum_one_each(const float *in, float *out, int n)
{
    __shared__ float partial[256];
    size_t i = (size_t)blockIdx.x * 256 + threadIdx.x;
    partial[threadIdx.x] = i < (size_t)n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = 128; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = partial[0];
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    float *partials;
    cudaGetSymbolAddress((void **)&partials, partials_seen);
    int blocks = (n + 255) / 256 < 1024 ? (n + 255) / 256 : 1024;
    sum_one_each<<<blocks, 256>>>(in, partials, n);
    sum_one_each<<<1, 256>>>(partials, sum, blocks); // the same fault again: only 256 partials are read
}
