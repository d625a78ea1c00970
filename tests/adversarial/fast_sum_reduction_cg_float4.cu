// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate and fast: float4 loads (n/4 vectors, the tail apart), a
// thread_block_tile<32> from cg::tiled_partition reduced with cg::reduce
// (cooperative_groups/reduce.h), the warps' sums through shared memory and
// block.sync(), one atomicAdd per block into an output zeroed by
// cudaMemsetAsync; thread coarsening by a grid of 2 blocks per SM.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "cudalings/sum_reduction.h"

namespace cg = cooperative_groups;

__global__ void reduce4(const float4 *__restrict__ in4, const float *__restrict__ in, float *sum, int n4, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ float partial[32];
    float v = 0.0f;
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 q = in4[i];
        v += (q.x + q.y) + (q.z + q.w);
    }
    for (int i = 4 * n4 + blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        v += in[i];
    v = cg::reduce(warp, v, cg::plus<float>());
    if (warp.thread_rank() == 0)
        partial[warp.meta_group_rank()] = v;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        v = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0.0f;
        v = cg::reduce(warp, v, cg::plus<float>());
        if (warp.thread_rank() == 0)
            atomicAdd(sum, v);
    }
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    int threads = 512;
    int blocks = 2 * p.multiProcessorCount;
    int needed = (n / 4 + threads - 1) / threads;
    if (blocks > needed)
        blocks = needed > 0 ? needed : 1;
    cudaMemsetAsync(sum, 0, sizeof(float));
    reduce4<<<blocks, threads>>>(reinterpret_cast<const float4 *>(in), in, sum, n / 4, n);
}
