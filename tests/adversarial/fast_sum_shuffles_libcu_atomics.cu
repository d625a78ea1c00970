// exercise: sum_shuffles
// expect: pass
// message: cases correct
// Legitimate and fast: float4 loads in a grid-stride loop, warp sums by shuffles, the block's warps counted
// in a __shared__ cuda::atomic<unsigned, thread_scope_block> and the block's sum added into *sum through a
// cuda::atomic_ref<float, thread_scope_device> (libcu++'s <cuda/atomic>, relaxed). The simulator had no
// <cuda/atomic>: 'the simulator cannot run libcu++' (exit 3). Checked on the simulator only (no GPU this
// session).
#include <cuda/atomic>
#include <cuda_runtime.h>
#include "cudalings/sum_shuffles.h"

#define THREADS 256
#define MAX_BLOCKS 1056

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int d = 16; d > 0; d >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, d);
    return v;
}

__global__ void sum_atomic_ref(const float *__restrict__ in, float *__restrict__ sum, int n)
{
    __shared__ float warps[THREADS / 32];
    __shared__ cuda::atomic<unsigned int, cuda::thread_scope_block> blocks_warps_done;
    if (threadIdx.x == 0)
        blocks_warps_done.store(0u, cuda::memory_order_relaxed);
    __syncthreads();
    const size_t n4 = (size_t)n / 4, first = (size_t)blockIdx.x * THREADS + threadIdx.x, step = (size_t)gridDim.x * THREADS;
    float v = 0.0f;
    for (size_t i = first; i < n4; i += step) {
        const float4 x = reinterpret_cast<const float4 *>(in)[i];
        v += (x.x + x.y) + (x.z + x.w);
    }
    for (size_t i = 4 * n4 + first; i < (size_t)n; i += step)
        v += in[i];
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0) {
        warps[threadIdx.x / 32] = v;

        blocks_warps_done.fetch_add(1u, cuda::memory_order_relaxed);
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        v = warp_sum(threadIdx.x < THREADS / 32 ? warps[threadIdx.x] : 0.0f);
        if (threadIdx.x == 0 && blocks_warps_done.load() == THREADS / 32) {
            cuda::atomic_ref<float, cuda::thread_scope_device> total(*sum);
            total.fetch_add(v, cuda::memory_order_relaxed);
        }
    }
}

void sum_shuffles_launch(const float *in, float *sum, int n)
{
    cudaMemsetAsync(sum, 0, sizeof(float));
    long long blocks = ((long long)n / 4 + THREADS - 1) / THREADS;
    blocks = blocks < 1 ? 1 : blocks > MAX_BLOCKS ? MAX_BLOCKS : blocks;
    sum_atomic_ref<<<(int)blocks, THREADS>>>(in, sum, n);
}
