// exercise: sum_reduction
// expect: correctness
// message: use one shared-memory word between two barriers
// sim-only
// The warp-synchronous reduction of fast_sum_reduction_syncwarp.cu without
// its __syncwarp() calls: lanes read what others write with nothing between
// (a race the simulator names; a GPU may or may not show it).
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"
__global__ void reduce(const float *in, float *sum, int n)
{
    __shared__ float partial[256];
    float v = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += in[i];
    partial[threadIdx.x] = v;
    __syncthreads();
    for (int stride = 128; stride > 32; stride /= 2) {
        if (threadIdx.x < stride)
            partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x < 32) {
        volatile float *p = partial;
        float t = p[threadIdx.x] + p[threadIdx.x + 32];
        for (int offset = 16; offset > 0; offset /= 2) {
            p[threadIdx.x] = t;
            t += p[threadIdx.x + offset];
        }
        if (threadIdx.x == 0)
            atomicAdd(sum, t);
    }
}
void sum_reduction_launch(const float *in, float *sum, int n)
{
    cudaMemsetAsync(sum, 0, sizeof(float));
    int blocks = (n + 255) / 256;
    if (blocks > 1056)
        blocks = 1056;
    reduce<<<blocks, 256>>>(in, sum, n);
}
