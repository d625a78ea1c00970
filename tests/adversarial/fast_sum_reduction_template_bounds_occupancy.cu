// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate and fast: a block size as a template parameter, bounded by
// __launch_bounds__(BLOCK, 2048 / BLOCK), an overload for float4 and one for
// float; the launcher sizes its block by cudaOccupancyMaxPotentialBlockSize and
// cudaFuncGetAttributes for reduce<256> before its first launch, as CUDA answers
// 256 (the bound) for it. The simulator answered 1024 for a template's instance
// (it knew the bound of a plain kernel only), and the launch of 1024 threads
// failed with too many resources.
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"

__device__ __forceinline__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

template <int BLOCK>
__device__ __forceinline__ void block_sum(float v, float *sum)
{
    __shared__ float warps[BLOCK / 32];
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0)
        warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < (blockDim.x + 31) / 32 ? warps[threadIdx.x] : 0.0f;
        v = warp_sum(v);
        if (threadIdx.x == 0)
            atomicAdd(sum, v);
    }
}

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK, 2048 / BLOCK) reduce(const float4 *in4, const float *in, float *sum, int n)
{
    float v = 0.0f;
    int n4 = n / 4;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
        float4 x = in4[i];
        v += (x.x + x.y) + (x.z + x.w);
    }
    for (int i = 4 * n4 + blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += in[i];
    block_sum<BLOCK>(v, sum);
}

// the same for inputs of no float4 alignment (never launched here, but an overload of the name)
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) reduce(const float *in, float *sum, int n)
{
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += in[i];
    block_sum<BLOCK>(v, sum);
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    static int block = 0, grid = 0;
    void (*wide)(const float4 *, const float *, float *, int) = reduce<256>;
    if (block == 0) {
        cudaFuncAttributes attr;
        cudaFuncGetAttributes(&attr, wide);
        cudaOccupancyMaxPotentialBlockSize(&grid, &block, wide);
        if (block <= 0 || block > attr.maxThreadsPerBlock)
            block = attr.maxThreadsPerBlock;
        if (grid <= 0)
            grid = 132;
    }
    int blocks = (n / 4 + block - 1) / block;
    if (blocks > grid)
        blocks = grid;
    if (blocks < 1)
        blocks = 1;
    cudaMemsetAsync(sum, 0, sizeof(float));
    wide<<<blocks, block>>>((const float4 *)in, in, sum, n);
}
