// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate and fast on a GPU: the student's own kernel and grid, with
// CUB's BlockReduce for the block's tree (a building block, as
// cooperative_groups::reduce is), one atomicAdd per block into an output
// zeroed first. The simulator runs CUB's block reduction (sim/include/cub/).
#include <cub/block/block_reduce.cuh>
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"

#define THREADS 256

__global__ void reduce_cub(const float *in, float *sum, int n)
{
    typedef cub::BlockReduce<float, THREADS> BlockReduce;
    __shared__ typename BlockReduce::TempStorage temp;
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x; i < (size_t)n; i += (size_t)gridDim.x * THREADS)
        v += in[i];
    float total = BlockReduce(temp).Sum(v);
    if (threadIdx.x == 0)
        atomicAdd(sum, total);
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > 1056)
        blocks = 1056;
    cudaMemsetAsync(sum, 0, sizeof(float));
    reduce_cub<<<blocks, THREADS>>>(in, sum, n);
}
