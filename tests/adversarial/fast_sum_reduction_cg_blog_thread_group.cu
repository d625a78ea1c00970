// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate: NVIDIA's cooperative groups blog post's reduce_sum, one __device__ function over any
// cg::thread_group (here the thread_block, passed by value as CUDA's base class), the tree in dynamic
// shared memory, each thread's grid-stride sum first; two launches as the lesson has. The simulator's
// thread_group was a tile of n threads only: a thread_block did not convert to it, and the file did not
// compile (exit 3). Checked on the simulator only (no GPU this session).
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"

using namespace cooperative_groups;

#define THREADS 256
#define MAX_BLOCKS 1024

__device__ float block_sums[MAX_BLOCKS];

// the cooperative groups blog's reduce_sum, generic over any thread_group
__device__ float reduce_sum(thread_group g, float *temp, float val)
{
    int lane = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) {
        temp[lane] = val;
        g.sync();
        if (lane < i)
            val += temp[lane + i];
        g.sync();
    }
    return val; // only thread 0 returns the full sum
}

__device__ float thread_sum(const float *input, int n)
{
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += input[i];
    return sum;
}

__global__ void sum_kernel_block(float *sum, const float *input, int n)
{
    float my_sum = thread_sum(input, n);
    extern __shared__ float temp[];
    thread_block g = this_thread_block();
    float block_sum = reduce_sum(g, temp, my_sum);
    if (g.thread_rank() == 0)
        sum[blockIdx.x] = block_sum;
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    float *partials;
    cudaGetSymbolAddress((void **)&partials, block_sums);
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    sum_kernel_block<<<blocks, THREADS, THREADS * sizeof(float)>>>(partials, in, n);
    sum_kernel_block<<<1, THREADS, THREADS * sizeof(float)>>>(sum, partials, blocks);
}
