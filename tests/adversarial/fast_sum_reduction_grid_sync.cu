// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate and fast: one cooperative launch (cudaLaunchCooperativeKernel, the grid from the occupancy API
// and the SM count, asked only where the device supports it): a grid-stride sum by cg::this_grid()'s
// thread_rank and size, cg::reduce over each warp, the blocks' partial sums in a __device__ array,
// grid.sync(), then block 0 adds them. It passed the simulator when written; kept as a fixture of the
// style. Checked on the simulator only (no GPU this session).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"

namespace cg = cooperative_groups;

#define THREADS 256

__device__ float partials[2048];

// one cooperative launch: every block its partial sum, grid.sync(), then block 0 adds the partials
__global__ void __launch_bounds__(THREADS) reduce_grid(const float *__restrict__ in, float *__restrict__ sum, int n)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ float warps[THREADS / 32];

    float v = 0.0f;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        v += in[i];
    v = cg::reduce(warp, v, cg::plus<float>());
    if (warp.thread_rank() == 0)
        warps[warp.meta_group_rank()] = v;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        v = warp.thread_rank() < warp.meta_group_size() ? warps[warp.thread_rank()] : 0.0f;
        v = cg::reduce(warp, v, cg::plus<float>());
        if (warp.thread_rank() == 0)
            partials[blockIdx.x] = v;
    }
    grid.sync();
    if (blockIdx.x == 0) {
        float t = 0.0f;
        for (unsigned b = threadIdx.x; b < gridDim.x; b += THREADS)
            t += partials[b];
        t = cg::reduce(warp, t, cg::plus<float>());
        if (warp.thread_rank() == 0)
            warps[warp.meta_group_rank()] = t;
        block.sync();
        if (threadIdx.x == 0) {
            float s = 0.0f;
            for (int w = 0; w < THREADS / 32; ++w)
                s += warps[w];
            *sum = s;
        }
    }
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    int dev = 0, sms = 0, per_sm = 0, coop = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_grid, THREADS, 0);
    int blocks = sms * per_sm;
    if (blocks > 2048)
        blocks = 2048;
    const int want = (n + THREADS - 1) / THREADS;
    if (blocks > want)
        blocks = want;
    if (!coop || blocks < 1)
        return;
    void *args[] = {(void *)&in, (void *)&sum, (void *)&n};
    cudaLaunchCooperativeKernel((void *)reduce_grid, dim3(blocks), dim3(THREADS), args, 0, 0);
}
