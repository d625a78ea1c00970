// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate and fast: one launch. The output zeroed by cudaMemsetAsync on
// the launch's stream; a grid of 8 blocks per multiprocessor (the count read
// once from cudaGetDeviceProperties) walks the input with float4 loads where
// it is aligned, the tail by scalars; __shfl_xor_sync sums a warp, shared
// memory the block's warps, one atomicAdd per block.
#include <cstdint>
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"

__device__ __forceinline__ float warp_sum(float v)
{
    #pragma unroll
    for (int m = 16; m > 0; m >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, m);
    return v;
}

__global__ void __launch_bounds__(256) reduce_vec(const float *__restrict__ in, float *__restrict__ sum, int n)
{
    __shared__ float warps[8];
    float v = 0.0f;
    size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x, stride = (size_t)gridDim.x * blockDim.x;
    size_t done = 0;
    if (((uintptr_t)in & 15) == 0) {
        size_t n4 = (size_t)n / 4;
        const float4 *in4 = reinterpret_cast<const float4 *>(in);
        for (size_t i = tid; i < n4; i += stride) {
            float4 x = in4[i];
            v += (x.x + x.y) + (x.z + x.w);
        }
        done = n4 * 4;
    }
    for (size_t i = done + tid; i < (size_t)n; i += stride)
        v += in[i];
    v = warp_sum(v);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0)
        warps[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < (int)(blockDim.x >> 5) ? warps[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0)
            atomicAdd(sum, v);
    }
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    static int blocks;
    if (!blocks) {
        cudaDeviceProp prop;
        int device = 0;
        cudaGetDevice(&device);
        blocks = cudaGetDeviceProperties(&prop, device) == cudaSuccess ? 8 * prop.multiProcessorCount : 1024;
    }
    int needed = (n / 4 + 255) / 256;
    cudaMemsetAsync(sum, 0, sizeof(float), 0);
    reduce_vec<<<needed < 1 ? 1 : needed < blocks ? needed : blocks, 256, 0, 0>>>(in, sum, n);
}
