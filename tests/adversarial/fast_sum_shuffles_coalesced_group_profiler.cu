// exercise: sum_shuffles
// expect: pass
// message: cases correct
// Legitimate and fast: float4 loads through __ldg in a grid-stride loop, each warp's sum by cg::reduce over
// a thread_block_tile<32>, the warps' sums met with atomicAdd_block on a __shared__ float, one atomicAdd a
// block from a coalesced_group; the launcher asks for four-byte banks (cudaFuncSetSharedMemConfig,
// deprecated and a no-op on compute capability 9, but declared by CUDA 13), prefers L1, and brackets the
// launch with cudaProfilerStart/Stop (cuda_profiler_api.h). The simulator had neither of those calls nor
// the header's own copy (a toolkit's pulled in one whose types clash with cudasim.h's): it could not
// compile the file. Checked on the simulator only (no GPU this session).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include "cudalings/sum_shuffles.h"

namespace cg = cooperative_groups;
using namespace cooperative_groups;

#define THREADS 256
#define MAX_BLOCKS 1056

__global__ void sum_cg(const float *__restrict__ in, float *__restrict__ sum, int n)
{
    __shared__ float block_sum;
    thread_block block = this_thread_block();
    if (block.thread_rank() == 0)
        block_sum = 0.0f;
    block.sync();

    const size_t n4 = (size_t)n / 4, first = (size_t)blockIdx.x * THREADS + threadIdx.x, step = (size_t)gridDim.x * THREADS;
    float v = 0.0f;
    for (size_t i = first; i < n4; i += step) {
        const float4 x = __ldg(reinterpret_cast<const float4 *>(in) + i);
        v += x.x + x.y + x.z + x.w;
    }
    for (size_t i = 4 * n4 + first; i < (size_t)n; i += step)
        v += in[i];

    // warp-aggregated: each warp's sum by shuffles, then one shared atomic per warp
    thread_block_tile<32> tile = tiled_partition<32>(block);
    v = cg::reduce(tile, v, cg::plus<float>());
    if (tile.thread_rank() == 0)
        atomicAdd_block(&block_sum, v);
    block.sync();
    if (block.thread_rank() == 0) {
        coalesced_group active = coalesced_threads();
        if (active.thread_rank() == 0)
            atomicAdd(sum, block_sum);
    }
}

void sum_shuffles_launch(const float *in, float *sum, int n)
{
    cudaMemsetAsync(sum, 0, sizeof(float));
    long long blocks = ((long long)n / 4 + THREADS - 1) / THREADS;
    blocks = blocks < 1 ? 1 : blocks > MAX_BLOCKS ? MAX_BLOCKS : blocks;
    cudaFuncSetSharedMemConfig(sum_cg, cudaSharedMemBankSizeFourByte);
    cudaDeviceSetCacheConfig(cudaFuncCachePreferL1);
    cudaProfilerStart();
    sum_cg<<<(int)blocks, THREADS>>>(in, sum, n);
    cudaProfilerStop();
}
