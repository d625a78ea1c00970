// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate: scratch from cudaMallocAsync (freed with cudaFreeAsync), the
// grid from cudaOccupancyMaxPotentialBlockSize, warp sums with
// __shfl_down_sync over __activemask(), a per-block sum through shared
// memory and a last single-block launch; double accumulation per thread.
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"

__device__ float warp_sum(float v)
{
    unsigned mask = __activemask();
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(mask, v, off);
    return v;
}

__global__ void partial(const float *in, float *out, int n)
{
    extern __shared__ float per_warp[];
    double acc = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += in[i];
    float v = warp_sum((float)acc);
    int warps = blockDim.x / 32;
    if (threadIdx.x % 32 == 0)
        per_warp[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < warps ? per_warp[threadIdx.x] : 0.0f;
        v = warp_sum(v);
        if (threadIdx.x == 0)
            out[blockIdx.x] = v;
    }
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    int min_grid = 1, block = 256;
    cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, partial, 32 * sizeof(float), 1024);
    block = block / 32 * 32;
    if (block < 32)
        block = 32;
    int blocks = min_grid > 0 ? min_grid : 1;
    if (blocks > (n + block - 1) / block)
        blocks = (n + block - 1) / block;
    float *scratch = nullptr;
    cudaMallocAsync(&scratch, blocks * sizeof(float), 0);
    partial<<<blocks, block, 32 * sizeof(float)>>>(in, scratch, n);
    partial<<<1, 1024, 32 * sizeof(float)>>>(scratch, sum, blocks);
    cudaFreeAsync(scratch, 0);
}
