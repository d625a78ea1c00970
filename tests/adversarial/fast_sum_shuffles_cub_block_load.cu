// exercise: sum_shuffles
// expect: pass
// message: cases correct
// Legitimate and fast: CUB's building blocks in a kernel of one's own: tiles of 256 x 4 floats read with
// cub::BlockLoad (BLOCK_LOAD_VECTORIZE, a float4 a thread, where n % 4 == 0; BLOCK_LOAD_WARP_TRANSPOSE,
// coalesced then exchanged in shared memory, otherwise; the last tile with valid items and a default),
// the sums by cub::BlockReduce, the two TempStorages in a __shared__ union, one atomicAdd a block. The
// simulator had CUB's reductions only: 'the simulator cannot run CUB beyond its block and warp
// reductions' (exit 3). Checked on the simulator only (no GPU this session).
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include "cudalings/sum_shuffles.h"

constexpr int THREADS = 256;
constexpr int ITEMS = 4;
constexpr int TILE = THREADS * ITEMS;
constexpr int MAX_BLOCKS = 1056;

template <cub::BlockLoadAlgorithm ALGORITHM>
__global__ void __launch_bounds__(THREADS) sum_tiles(const float *__restrict__ in, float *__restrict__ sum, int n)
{
    using Load = cub::BlockLoad<float, THREADS, ITEMS, ALGORITHM>;
    using Reduce = cub::BlockReduce<float, THREADS>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Reduce::TempStorage reduce;
    } temp;

    float v = 0.0f;
    for (long long base = (long long)blockIdx.x * TILE; base < n; base += (long long)gridDim.x * TILE) {
        float items[ITEMS];
        const int valid = (int)min((long long)TILE, n - base);
        if (valid == TILE)
            Load(temp.load).Load(in + base, items);
        else
            Load(temp.load).Load(in + base, items, valid, 0.0f);
        __syncthreads(); // the storage is used again
#pragma unroll
        for (int i = 0; i < ITEMS; ++i)
            v += items[i];
    }
    const float total = Reduce(temp.reduce).Sum(v);
    if (threadIdx.x == 0)
        atomicAdd(sum, total);
}

void sum_shuffles_launch(const float *in, float *sum, int n)
{
    cudaMemsetAsync(sum, 0, sizeof(float));
    int blocks = (n + TILE - 1) / TILE;
    blocks = blocks < 1 ? 1 : blocks > MAX_BLOCKS ? MAX_BLOCKS : blocks;
    // whole float4s where the input allows them (cudaMalloc's 256-byte alignment), coalesced loads otherwise
    if (n % 4 == 0)
        sum_tiles<cub::BLOCK_LOAD_VECTORIZE><<<blocks, THREADS>>>(in, sum, n);
    else
        sum_tiles<cub::BLOCK_LOAD_WARP_TRANSPOSE><<<blocks, THREADS>>>(in, sum, n);
}
