// exercise: sum_shuffles
// expect: pass
// message: cases correct
// Legitimate and fast: a kernel templated on its block size and on whether it reads float4s (if constexpr),
// __launch_bounds__, __restrict__ and __ldg, #pragma unroll, xor butterflies (every lane ends with its
// warp's sum), a grid sized once by the occupancy API and launched with cudaLaunchKernelEx (a template
// kernel whose arguments hold a comma, a priority attribute, a long converted to the kernel's int).
#include <algorithm>
#include <cuda_runtime.h>
#include "cudalings/sum_shuffles.h"

template <int THREADS, bool VEC>
__global__ void __launch_bounds__(THREADS) sum_kernel(const float *__restrict__ in, float *__restrict__ sum, int n)
{
    __shared__ float warps[THREADS / 32];
    size_t first = (size_t)blockIdx.x * THREADS + threadIdx.x, step = (size_t)gridDim.x * THREADS;
    size_t done = 0;
    float v = 0.0f;
    if constexpr (VEC) {
        const float4 *in4 = reinterpret_cast<const float4 *>(in);
        size_t n4 = (size_t)n / 4;
#pragma unroll 4
        for (size_t i = first; i < n4; i += step) {
            float4 x = __ldg(in4 + i);
            v += (x.x + x.y) + (x.z + x.w);
        }
        done = 4 * n4;
    }
    for (size_t i = done + first; i < (size_t)n; i += step)
        v += __ldg(in + i);
#pragma unroll
    for (int m = 16; m > 0; m >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, m);
    if ((threadIdx.x & 31) == 0)
        warps[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < THREADS / 32 ? warps[threadIdx.x] : 0.0f;
#pragma unroll
        for (int m = 16; m > 0; m >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, m);
        if (threadIdx.x == 0)
            atomicAdd(sum, v);
    }
}

void sum_shuffles_launch(const float *in, float *sum, int n)
{
    constexpr int T = 512;
    static int max_blocks = 0;
    if (max_blocks == 0) {
        int dev = 0, sms = 0, per_sm = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sum_kernel<T, true>, T, 0);
        max_blocks = std::max(1, sms * per_sm);
    }
    long long want = ((long long)n / 4 + T - 1) / T;
    int blocks = (int)std::min<long long>(std::max<long long>(want, 1), max_blocks);
    cudaMemsetAsync(sum, 0, sizeof(float));

    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributePriority;
    attr[0].val.priority = 0;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(T);
    config.attrs = attr;
    config.numAttrs = 1;
    long count = n;
    if (n >= 4)
        cudaLaunchKernelEx(&config, sum_kernel<T, true>, in, sum, count);
    else
        cudaLaunchKernelEx(&config, sum_kernel<T, false>, in, sum, count);
}
