// exercise: transpose
// expect: pass
// message: cases correct
// Legitimate: a constexpr tile size, a lambda inside the kernel for the
// index arithmetic, cooperative groups' block.sync(), a swizzle-free padded
// tile, cudaFuncSetCacheConfig and cudaFuncGetAttributes in the launcher.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include "cudalings/transpose.h"

namespace cg = cooperative_groups;
constexpr int TILE = 32, ROWS = 8;

static __device__ __forceinline__ size_t at(int row, int col, int width) { return (size_t)row * width + col; }

__global__ void __launch_bounds__(TILE * ROWS, 4) tr(const float *__restrict__ in, float *__restrict__ out,
                                                     int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    cg::thread_block block = cg::this_thread_block();
    auto inside = [&](int r, int c, int h, int w) { return r < h && c < w; };
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (inside(y + j, x, rows, cols))
            tile[threadIdx.y + j][threadIdx.x] = in[at(y + j, x, cols)];
    block.sync();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (inside(y + j, x, cols, rows))
            out[at(y + j, x, rows)] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    cudaFuncSetCacheConfig(tr, cudaFuncCachePreferShared);
    cudaFuncAttributes attr;
    if (cudaFuncGetAttributes(&attr, tr) != cudaSuccess || attr.maxThreadsPerBlock < TILE * ROWS)
        return;
    dim3 block(TILE, ROWS), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    tr<<<grid, block>>>(in, out, rows, cols);
}
