// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate and fast: the block sized by cudaOccupancyMaxPotentialBlockSizeVariableSMem,
// whose functor gives the dynamic shared memory a block of each size needs (a float per
// warp), for a kernel bounded by __launch_bounds__(512); the grid by ...WithFlags. The
// simulator lacked both calls, so the file did not compile.
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"

__device__ __forceinline__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void __launch_bounds__(512) reduce(const float *in, float *sum, int n)
{
    extern __shared__ float warps[];
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += in[i];
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

struct WarpFloats {
    __host__ __device__ size_t operator()(int block) const { return (size_t)((block + 31) / 32) * sizeof(float); }
};

void sum_reduction_launch(const float *in, float *sum, int n)
{
    static int block = 0, grid = 0;
    if (block == 0) {
        int unused = 0, fixed_block = 0;
        cudaOccupancyMaxPotentialBlockSizeVariableSMem(&grid, &block, reduce, WarpFloats());
        cudaOccupancyMaxPotentialBlockSizeWithFlags(&unused, &fixed_block, reduce, 32 * sizeof(float), 0,
                                                    cudaOccupancyDefault);
        if (block <= 0 || block > 512 || fixed_block <= 0 || fixed_block > 512)
            block = 256;
        if (grid <= 0)
            grid = 132;
    }
    int blocks = (n + block - 1) / block;
    if (blocks > grid)
        blocks = grid;
    cudaMemsetAsync(sum, 0, sizeof(float));
    reduce<<<blocks, block, WarpFloats()(block)>>>(in, sum, n);
}
