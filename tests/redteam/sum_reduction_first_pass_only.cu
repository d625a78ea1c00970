// exercise: sum_reduction
// expect: run|correctness
// message: past the end|expected
// An honest mistake: the second launch is missing, and the first writes one
// partial sum per block into sum[blockIdx.x], past the end of the one-float
// output as soon as there are two blocks.
#include "cudalings/sum_reduction.h"

__global__ void reduce(const float *in, float *out, int n)
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
        out[blockIdx.x] = part[0];
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    int blocks = (n + 255) / 256;
    reduce<<<blocks < 1024 ? blocks : 1024, 256>>>(in, sum, n);
}
