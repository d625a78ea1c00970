// exercise: sum_shuffles
// expect: pass
// message: cases correct
// Legitimate and fast: CUB's WarpReduce as the warp's shuffles (a building block, not the exercise done
// by a library), a second WarpReduce of 8 logical lanes for the block's 8 warps, float4 loads in a
// grid-stride loop, one atomicAdd a block. The simulator gives CUB's block and warp reductions.
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include "cudalings/sum_shuffles.h"

#define THREADS 256
#define WARPS (THREADS / 32)

__global__ void sum_cub(const float *in, float *sum, int n)
{
    typedef cub::WarpReduce<float> WarpSum;
    typedef cub::WarpReduce<float, WARPS> BlockSum;
    __shared__ typename WarpSum::TempStorage warp_temp[WARPS];
    __shared__ typename BlockSum::TempStorage block_temp;
    __shared__ float per_warp[WARPS];

    const float4 *in4 = (const float4 *)in;
    size_t n4 = (size_t)n / 4, step = (size_t)gridDim.x * THREADS;
    size_t first = (size_t)blockIdx.x * THREADS + threadIdx.x;
    float v = 0.0f;
    for (size_t i = first; i < n4; i += step) {
        float4 x = in4[i];
        v += (x.x + x.y) + (x.z + x.w);
    }
    for (size_t i = 4 * n4 + first; i < (size_t)n; i += step)
        v += in[i];

    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    float w = WarpSum(warp_temp[warp]).Sum(v);
    if (lane == 0)
        per_warp[warp] = w;
    __syncthreads();
    if (warp == 0) {
        float t = BlockSum(block_temp).Sum(lane < WARPS ? per_warp[lane] : 0.0f);
        if (lane == 0)
            atomicAdd(sum, t);
    }
}

void sum_shuffles_launch(const float *in, float *sum, int n)
{
    long long blocks = ((long long)n / 4 + THREADS - 1) / THREADS;
    blocks = blocks < 1 ? 1 : blocks > 1056 ? 1056 : blocks;
    cudaMemsetAsync(sum, 0, sizeof(float));
    sum_cub<<<(int)blocks, THREADS>>>(in, sum, n);
}
