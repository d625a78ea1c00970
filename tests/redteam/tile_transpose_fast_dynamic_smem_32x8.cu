// exercise: tile_transpose
// expect: pass
// message: cases correct
// Legitimate and fast: a 32 x 32 tile in dynamic shared memory (extern
// __shared__, its size given at launch, padded to 33 columns), blocks of
// 32 x 8 threads each moving four rows, cudaFuncSetAttribute asking for the
// shared-memory carve-out it prefers.
#include <cuda_runtime.h>
#include "cudalings/tile_transpose.h"

#define TILE 32
#define ROWS 8

__global__ void transpose_dyn(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    extern __shared__ float tile[]; // TILE x (TILE + 1)
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    #pragma unroll
    for (int k = 0; k < TILE; k += ROWS)
        if (x < cols && y + k < rows)
            tile[(threadIdx.y + k) * (TILE + 1) + threadIdx.x] = in[(size_t)(y + k) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    #pragma unroll
    for (int k = 0; k < TILE; k += ROWS)
        if (x < rows && y + k < cols)
            out[(size_t)(y + k) * rows + x] = tile[threadIdx.x * (TILE + 1) + threadIdx.y + k];
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    size_t smem = TILE * (TILE + 1) * sizeof(float);
    cudaFuncSetAttribute(transpose_dyn, cudaFuncAttributePreferredSharedMemoryCarveout, 50);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_dyn<<<grid, dim3(TILE, ROWS), smem>>>(in, out, rows, cols);
}
