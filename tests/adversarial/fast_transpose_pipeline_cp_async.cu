// exercise: transpose
// expect: pass
// message: cases correct
// Legitimate: the tile loaded with cp.async through <cuda_pipeline.h>
// (__pipeline_memcpy_async, __pipeline_commit, __pipeline_wait_prior), then
// written back transposed from a padded tile; 32x8 threads x 4 elements.
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include "cudalings/transpose.h"

#define TILE 32
#define ROWS 8

__global__ void tr_async(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < cols && y + j < rows)
            __pipeline_memcpy_async(&tile[threadIdx.y + j][threadIdx.x], &in[(size_t)(y + j) * cols + x],
                                    sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, ROWS), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    tr_async<<<grid, block>>>(in, out, rows, cols);
}
