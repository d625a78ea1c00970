// exercise: tile_transpose
// expect: pass
// message: cases correct
// Legitimate: the tile in dynamic shared memory (extern __shared__), its
// size given as the third <<<>>> argument; a 64x64 tile of 64x16 threads,
// each moving 4 elements; cudaFuncSetAttribute asks for the carve-out.
#include <cuda_runtime.h>
#include "cudalings/tile_transpose.h"

#define T 64
#define R 16

__global__ void tr(const float *in, float *out, int rows, int cols)
{
    extern __shared__ float tile[]; // T x (T + 1)
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    for (int j = 0; j < T; j += R)
        if (x < cols && y + j < rows)
            tile[(threadIdx.y + j) * (T + 1) + threadIdx.x] = in[(size_t)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * T + threadIdx.x;
    y = blockIdx.x * T + threadIdx.y;
    for (int j = 0; j < T; j += R)
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x * (T + 1) + threadIdx.y + j];
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    size_t smem = T * (T + 1) * sizeof(float);
    cudaFuncSetAttribute(tr, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
    dim3 block(T, R), grid((cols + T - 1) / T, (rows + T - 1) / T);
    tr<<<grid, block, smem>>>(in, out, rows, cols);
}
