// expect: performance
// Correct, but one element per thread: a block for every 256 inputs (524,288
// blocks in the timed case), each running the whole tree for just 256 numbers
// and then adding its sum to *sum with atomicAdd, all on the same address.
#include "cudalings/sum_reduction.h"

__global__ void sum_block_per_256(const float *in, float *sum, int n)
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
        atomicAdd(sum, partial[0]);
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    cudaMemsetAsync(sum, 0, sizeof(float));
    sum_block_per_256<<<(n + 255) / 256, 256>>>(in, sum, n);
}
