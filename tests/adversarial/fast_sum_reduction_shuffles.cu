// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate and fast: float4 loads in a grid-stride loop, a warp's sum with
// shuffles, the block's warps through shared memory, one atomicAdd a block.
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"
__inline__ __device__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}
__global__ void reduce(const float *in, float *sum, int n)
{
    __shared__ float warps[32];
    float v = 0;
    int n4 = n / 4;
    const float4 *in4 = (const float4 *)in;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
        float4 x = in4[i];
        v += (x.x + x.y) + (x.z + x.w);
    }
    for (int i = 4 * n4 + blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += in[i];
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0)
        warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < blockDim.x / 32 ? warps[threadIdx.x] : 0;
        v = warp_sum(v);
        if (threadIdx.x == 0)
            atomicAdd(sum, v);
    }
}
void sum_reduction_launch(const float *in, float *sum, int n)
{
    cudaMemsetAsync(sum, 0, sizeof(float));
    int blocks = (n / 4 + 255) / 256;
    if (blocks > 1056)
        blocks = 1056;
    if (blocks < 1)
        blocks = 1;
    reduce<<<blocks, 256>>>(in, sum, n);
}
