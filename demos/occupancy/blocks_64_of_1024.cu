// variant: 64 blocks of 1024 threads: the same 64 SMs busy, 32 warps on each
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
    int blocks = 64; // the same SMs as col_sums, four times the warps on each
    scale_grid_stride<<<blocks, 1024>>>(in, out, n);
}
