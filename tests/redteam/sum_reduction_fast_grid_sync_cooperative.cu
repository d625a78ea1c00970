// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate and fast on a GPU (0.98x the reference on an H100): one
// cooperative launch (cudaLaunchCooperativeKernel, a grid that fits on the
// device at once, from the occupancy API): blocks write their partial sums,
// grid.sync() waits for all of them, and block 0 adds them up. The simulator
// runs the grid's blocks to each grid.sync() in turn, and passes it too.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"
namespace cg = cooperative_groups;

#define THREADS 256
#define MAX_BLOCKS 4096

__device__ float partial_sums[MAX_BLOCKS];

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
        partial_sums[blockIdx.x] = t;
    }
    grid.sync();
    if (blockIdx.x != 0)
        return;
    float t = 0.0f;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += THREADS)
        t += partial_sums[b];
    for (int m = 16; m; m >>= 1)
        t += __shfl_down_sync(0xffffffffu, t, m);
    __syncthreads();
    if ((threadIdx.x & 31) == 0)
        warps[threadIdx.x / 32] = t;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int w = 0; w < THREADS / 32; w++)
            s += warps[w];
        *sum = s;
    }
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    static int blocks;
    if (!blocks) {
        int device = 0, sms = 1, per_sm = 1;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_coop, THREADS, 0);
        blocks = sms * per_sm;
        if (blocks > MAX_BLOCKS)
            blocks = MAX_BLOCKS;
    }
    void *args[] = { (void *)&in, (void *)&sum, (void *)&n };
    cudaLaunchCooperativeKernel((void *)reduce_coop, dim3(blocks), dim3(THREADS), args, 0, 0);
}
