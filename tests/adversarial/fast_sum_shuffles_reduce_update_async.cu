// exercise: sum_shuffles
// expect: pass
// message: cases correct
// Legitimate and fast: CUDA 12's cooperative groups: float4 loads in a grid-stride loop, then each warp's
// sum added into *sum by cg::reduce_update_async over a thread_block_tile<32> and a
// cuda::atomic_ref<float, thread_scope_device> (one atomic a warp), the tail in the same sums. The
// simulator had neither reduce_update_async nor invoke_one nor this_thread: it could not compile the
// file (exit 3). Checked on the simulator only (no GPU this session).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/atomic>
#include <cuda_runtime.h>
#include "cudalings/sum_shuffles.h"

namespace cg = cooperative_groups;

#define THREADS 256
#define MAX_BLOCKS 1056

__global__ void __launch_bounds__(THREADS) sum_async(const float *__restrict__ in, float *__restrict__ sum, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    const size_t n4 = (size_t)n / 4, first = (size_t)blockIdx.x * THREADS + threadIdx.x, step = (size_t)gridDim.x * THREADS;
    float v = 0.0f;
    for (size_t i = first; i < n4; i += step) {
        const float4 x = __ldg(reinterpret_cast<const float4 *>(in) + i);
        v += (x.x + x.y) + (x.z + x.w);
    }
    for (size_t i = 4 * n4 + first; i < (size_t)n; i += step)
        v += in[i];
    cuda::atomic_ref<float, cuda::thread_scope_device> total(*sum);
    cg::reduce_update_async(warp, total, v, cg::plus<float>());
}

void sum_shuffles_launch(const float *in, float *sum, int n)
{
    cudaMemsetAsync(sum, 0, sizeof(float));
    long long blocks = ((long long)n / 4 + THREADS - 1) / THREADS;
    blocks = blocks < 1 ? 1 : blocks > MAX_BLOCKS ? MAX_BLOCKS : blocks;
    sum_async<<<(int)blocks, THREADS>>>(in, sum, n);
}
