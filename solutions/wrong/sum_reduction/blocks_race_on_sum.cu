// expect: correctness
// sim-only
// *sum is zeroed, but each block adds its partial with a plain `*sum += …`:
// a read, an add and a write that other blocks can slip between, so sums get
// lost. How many depends on timing on a GPU; the simulator runs the blocks
// in two orders, sees the result change and stops the launch there.
#include "cudalings/sum_reduction.h"

__global__ void sum_unsafe_add(const float *in, float *sum, int n)
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
        *sum += partial[0];
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    cudaMemsetAsync(sum, 0, sizeof(float));
    int blocks = (n + 255) / 256 < 1024 ? (n + 255) / 256 : 1024;
    sum_unsafe_add<<<blocks, 256>>>(in, sum, n);
}
