// exercise: transpose_coarse
// expect: pass
// message: cases correct
// Legitimate and fast: the lesson's coarsened transpose through a padded tile, launched through the
// runtime's C entry point cudaLaunchKernelExC (a cudaLaunchConfig_t, the kernel by an untyped pointer, an
// array of pointers to its arguments). The simulator had no cudaLaunchKernelExC: it could not compile the
// file (exit 3). Checked on the simulator only (no GPU this session).
#include <cuda_runtime.h>
#include "cudalings/transpose_coarse.h"

#define TILE 32
#define ROWS 8

__global__ void __launch_bounds__(TILE *ROWS) coarse(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

// launched through the runtime's C entry point: a configuration, the kernel by an untyped pointer, and an
// array of pointers to the arguments
void transpose_coarse_launch(const float *in, float *out, int rows, int cols)
{
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    config.blockDim = dim3(TILE, ROWS);
    config.dynamicSmemBytes = 0;
    config.stream = 0;
    config.attrs = nullptr;
    config.numAttrs = 0;
    void *args[] = {(void *)&in, (void *)&out, (void *)&rows, (void *)&cols};
    cudaError_t err = cudaLaunchKernelExC(&config, (const void *)coarse, args);
    if (err != cudaSuccess)
        cudaGetLastError();
}
