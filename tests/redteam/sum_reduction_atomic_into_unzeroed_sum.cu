// exercise: sum_reduction
// expect: correctness
// message: NaN
// An honest mistake: one atomicAdd per block into *sum, which nobody set to
// zero first: the harness's NaN poison survives every addition.
#include "cudalings/sum_reduction.h"

__global__ void reduce(const float *in, float *sum, int n)
{
    __shared__ float part[256];
    float v = 0.0f;
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256)
        v += in[i];
    part[threadIdx.x] = v;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(sum, part[0]);
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    int blocks = (n + 255) / 256;
    reduce<<<blocks < 1024 ? blocks : 1024, 256>>>(in, sum, n);
}
