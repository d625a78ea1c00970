// variant: 64 blocks of 256 threads, col_sums' launch: on a GPU of 132 SMs, 64 SMs hold 8 warps each and 68 have nothing to do
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
    int blocks = 64; // col_sums' launch at 16384 columns
    scale_grid_stride<<<blocks, 256>>>(in, out, n);
}
