// exercise: sliding_average
// expect: pass
// message: cases correct
// Legitimate: the block's tile copied into shared memory with
// cooperative_groups::memcpy_async (the part inside the vector), the halo
// past either end zeroed by the threads, cg::wait(block), then each thread
// sums its window; thread_block_tile<32, thread_block> named explicitly.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include "cudalings/sliding_average.h"

namespace cg = cooperative_groups;
#define R 3
#define T 256

__global__ void avg(const float *in, float *out, int n)
{
    __shared__ float tile[T + 2 * R];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32, cg::thread_block> warp = cg::tiled_partition<32>(block);
    int start = blockIdx.x * T;
    int lo = max(start - R, 0), hi = min(start + T + R, n); // the part of the tile inside the vector
    for (int j = threadIdx.x; j < T + 2 * R; j += T) {
        int at = start - R + j;
        if (at < lo || at >= hi)
            tile[j] = 0.0f;
    }
    cg::memcpy_async(block, tile + (lo - (start - R)), in + lo, sizeof(float) * (hi - lo));
    cg::wait(block);
    int i = start + threadIdx.x;
    if (i < n) {
        float s = 0.0f;
#pragma unroll
        for (int k = 0; k < 2 * R + 1; k++)
            s += tile[threadIdx.x + k];
        int first = max(i - R, 0), last = min(i + R, n - 1);
        out[i] = s / (last - first + 1);
    }
    warp.sync();
}

void sliding_average_launch(const float *in, float *out, int n)
{
    avg<<<(n + T - 1) / T, T>>>(in, out, n);
}
