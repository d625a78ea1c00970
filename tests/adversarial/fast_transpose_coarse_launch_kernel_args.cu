// exercise: transpose_coarse
// expect: pass
// message: cases correct
// Legitimate and fast: the coarsened 32 x 8 transpose with its padded tile in dynamic shared memory, the
// kernel templated on the tile, __launch_bounds__, __restrict__, __ldg and #pragma unroll, the carveout
// set once with cudaFuncSetAttribute, and the launch by cudaLaunchKernel with an array of arguments.
#include <cuda_runtime.h>
#include "cudalings/transpose_coarse.h"

template <int TILE, int ROWS>
__global__ void __launch_bounds__(TILE *ROWS)
    transpose_tiles(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    extern __shared__ float tile[]; // TILE x (TILE + 1): a column read touches every bank once
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
        if (x < cols && y + j < rows)
            tile[(threadIdx.y + j) * (TILE + 1) + threadIdx.x] = __ldg(&in[(size_t)(y + j) * cols + x]);
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x * (TILE + 1) + threadIdx.y + j];
}

void transpose_coarse_launch(const float *in, float *out, int rows, int cols)
{
    constexpr int TILE = 32, ROWS = 8;
    static bool carveout_set = false;
    if (!carveout_set) {
        cudaFuncSetAttribute(transpose_tiles<TILE, ROWS>, cudaFuncAttributePreferredSharedMemoryCarveout,
                             cudaSharedmemCarveoutMaxShared);
        carveout_set = true;
    }
    dim3 block(TILE, ROWS), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    size_t smem = TILE * (TILE + 1) * sizeof(float);
    void *args[] = { &in, &out, &rows, &cols };
    cudaLaunchKernel((const void *)transpose_tiles<TILE, ROWS>, grid, block, args, smem, 0);
}
