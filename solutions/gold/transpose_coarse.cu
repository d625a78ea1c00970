/*
 * transpose_coarse, gold: the kernel of solutions/gold/transpose.cu (a gold
 * solution is graded as a submission, one whole file, so it stands here
 * again). It is this exercise's reference itself, with __restrict__ and
 * __ldg() telling the compiler that `in` is read-only for the kernel's
 * lifetime, and the loops unrolled: on an H100 the coarsened transpose
 * already moves its bytes at the rate of a device-to-device copy.
 */
#include "cudalings/transpose_coarse.h"

#define TILE 32
#define ROWS 8 // threads down a tile: each moves TILE / ROWS elements

__global__ void __launch_bounds__(TILE * ROWS)
transpose_coarsened(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];

    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols)
        #pragma unroll
        for (int j = 0; j < TILE; j += ROWS)
            if (y + j < rows)
                tile[threadIdx.y + j][threadIdx.x] = __ldg(&in[(size_t)(y + j) * cols + x]);
    __syncthreads();

    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < rows)
        #pragma unroll
        for (int j = 0; j < TILE; j += ROWS)
            if (y + j < cols)
                out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose_coarse_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, ROWS);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_coarsened<<<grid, block>>>(in, out, rows, cols);
}
