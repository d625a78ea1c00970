// exercise: sum_reduction
// expect: run
// message: finished the kernel without reaching it
// gpu-expect: run
// gpu-message: never ends
// A single-launch reduction whose blocks other than block 0 leave before the
// grid-wide sync that block 0 waits at: on a GPU block 0 waits forever (the
// grading's time limit ends it). The simulator names the grid.sync()'s line.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"
namespace cg = cooperative_groups;

#define THREADS 256
#define MAX_BLOCKS 4096

__device__ float partials[MAX_BLOCKS];

__global__ void reduce_coop(const float *in, float *sum, int n)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ float warps[THREADS / 32];
    float v = 0.0f;
    for (size_t i = grid.thread_rank(); i < (size_t)n; i += grid.size())
        v += in[i];
    for (int m = 16; m; m >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, m);
    if ((threadIdx.x & 31) == 0)
        warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0.0f;
        for (int w = 0; w < THREADS / 32; w++)
            t += warps[w];
        partials[blockIdx.x] = t;
    }
    if (blockIdx.x != 0)
        return; // the mistake: only block 0 reaches the grid-wide sync
    grid.sync();
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (unsigned b = 0; b < gridDim.x; b++)
            s += partials[b];
        *sum = s;
    }
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    int device = 0, sms = 1, per_sm = 1;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_coop, THREADS, 0);
    int blocks = sms * per_sm < MAX_BLOCKS ? sms * per_sm : MAX_BLOCKS;
    void *args[] = { (void *)&in, (void *)&sum, (void *)&n };
    cudaLaunchCooperativeKernel((void *)reduce_coop, dim3(blocks), dim3(THREADS), args, 0, 0);
}
