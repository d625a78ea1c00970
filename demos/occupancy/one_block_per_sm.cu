// variant: one block of 256 threads per SM: every SM busy, 8 warps on each
#include "cudalings/occupancy.h"

// Each thread takes elements i, i + (all the threads of the grid), ...: any grid covers any n.
__global__ void scale_grid_stride(const float *in, float *out, int n)
{
    size_t step = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n; i += step)
        out[i] = 2.0f * in[i];
}

void occupancy_launch(const float *in, float *out, int n)
{
    int device = 0, sms = 1;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    int blocks = sms; // one block on every multiprocessor
    scale_grid_stride<<<blocks, 256>>>(in, out, n);
}
