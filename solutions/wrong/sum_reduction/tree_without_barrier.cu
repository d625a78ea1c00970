// expect: correctness
// sim-only
// The tree has no __syncthreads() between its steps: a thread may add a
// neighbour's element before the neighbour has finished the previous step.
// Within one warp a GPU often gets away with it; the simulator runs the
// threads in two orders and sees the sum change.
#include "cudalings/sum_reduction.h"

__device__ float racy_partials[1024];

__global__ void sum_racy_tree(const float *in, float *out, int n)
{
    __shared__ float partial[256];
    float mine = 0.0f;
    for (size_t i = (size_t)blockIdx.x * 256 + threadIdx.x; i < (size_t)n; i += (size_t)gridDim.x * 256)
        mine += in[i];
    partial[threadIdx.x] = mine;
    __syncthreads();
    for (int stride = 128; stride > 0; stride /= 2)
        if (threadIdx.x < stride)
            partial[threadIdx.x] += partial[threadIdx.x + stride];
    if (threadIdx.x == 0)
        out[blockIdx.x] = partial[0];
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    float *partials;
    cudaGetSymbolAddress((void **)&partials, racy_partials);
    int blocks = (n + 255) / 256 < 1024 ? (n + 255) / 256 : 1024;
    sum_racy_tree<<<blocks, 256>>>(in, partials, n);
    sum_racy_tree<<<1, 256>>>(partials, sum, blocks);
}
