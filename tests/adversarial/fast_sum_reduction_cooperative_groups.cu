// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate and fast: cooperative groups (tiles of 32 reduce with cg::reduce,
// one atomicAdd per warp into an output zeroed by cudaMemsetAsync), a grid
// sized from the multiprocessor count. The simulator has its own
// cooperative_groups.h for what a <<< >>> launch may use.
#include "cudalings/sum_reduction.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void reduce_cg(const float *in, float *sum, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += in[i];
    v = cg::reduce(warp, v, cg::plus<float>());
    if (warp.thread_rank() == 0)
        atomicAdd(sum, v);
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    cudaMemsetAsync(sum, 0, sizeof(float));
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    reduce_cg<<<sms * 8, 256>>>(in, sum, n);
}
