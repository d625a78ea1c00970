// variant: every SM as full as it gets: as many blocks of 256 as cudaOccupancyMaxActiveBlocksPerMultiprocessor says fit (at most 8 on an H100, whose SMs hold 2048 threads: 64 warps)
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
    // as many blocks of 256 as an SM holds at once (the registers and threads they need allow)
    int per_sm = 1;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scale_grid_stride, 256, 0);
    int blocks = sms * per_sm;
    scale_grid_stride<<<blocks, 256>>>(in, out, n);
}
