// exercise: sum_shuffles
// expect: pass
// message: cases correct
// Legitimate and fast: float4 loads in a grid-stride loop, the warps' sums by cg::reduce, and the last
// n % 4 floats added in block 0's first warp by the lanes that hold one: a cg::binary_partition of the
// warp, reduced over the part (cooperative groups' partitions, CUDA 11+). The simulator had neither
// binary_partition nor labeled_partition: it could not compile the file (exit 3). Checked on the simulator
// only (no GPU this session).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>
#include "cudalings/sum_shuffles.h"

namespace cg = cooperative_groups;

#define THREADS 256
#define MAX_BLOCKS 1056

__global__ void __launch_bounds__(THREADS) sum_partitioned(const float *__restrict__ in, float *__restrict__ sum, int n)
{
    __shared__ float warps[THREADS / 32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    const size_t n4 = (size_t)n / 4, first = (size_t)blockIdx.x * THREADS + threadIdx.x, step = (size_t)gridDim.x * THREADS;
    float v = 0.0f;
    for (size_t i = first; i < n4; i += step) {
        const float4 x = reinterpret_cast<const float4 *>(in)[i];
        v += (x.x + x.y) + (x.z + x.w);
    }
    v = cg::reduce(warp, v, cg::plus<float>());
    if (warp.thread_rank() == 0)
        warps[warp.meta_group_rank()] = v;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        float w = cg::reduce(warp, warp.thread_rank() < THREADS / 32 ? warps[warp.thread_rank()] : 0.0f, cg::plus<float>());
        // the last n % 4 floats, in block 0's first warp: the lanes that hold one add them among themselves
        // (a binary partition of the warp), and one lane of that part adds them with the block's sum
        const size_t tail = 4 * n4 + warp.thread_rank();
        const bool holds = blockIdx.x == 0 && tail < (size_t)n;
        cg::coalesced_group part = cg::binary_partition(warp, holds);
        if (holds) {
            const float t = cg::reduce(part, in[tail], cg::plus<float>());
            if (part.thread_rank() == 0) // lane 0: the part is lanes 0 .. n % 4 - 1
                w += t;
        }
        if (warp.thread_rank() == 0)
            atomicAdd(sum, w);
    }
}

void sum_shuffles_launch(const float *in, float *sum, int n)
{
    cudaMemsetAsync(sum, 0, sizeof(float));
    long long blocks = ((long long)n / 4 + THREADS - 1) / THREADS;
    blocks = blocks < 1 ? 1 : blocks > MAX_BLOCKS ? MAX_BLOCKS : blocks;
    sum_partitioned<<<(int)blocks, THREADS>>>(in, sum, n);
}
