/*
 * transpose, gold: the 32 × 33 tile of the reference, moved by a quarter of
 * the threads, each thread four elements (NVIDIA's "An Efficient Matrix
 * Transpose in CUDA C/C++"). The reference's 32 × 32 threads each move one
 * element and meet at a barrier of 1,024 threads: few blocks fit a
 * multiprocessor, and between loading and storing, nothing else is in flight.
 * With 32 × 8 threads, a thread issues its four loads back to back, a block of
 * 256 waits at a barrier a quarter as large, and eight blocks fit a
 * multiprocessor at once.
 *
 * The tile's spare column keeps the column reads conflict-free, as in the
 * reference; both global accesses stay coalesced (threadIdx.x walks along a
 * row of `in`, then along a row of `out`).
 */
#include "cudalings/transpose.h"

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

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, ROWS);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_coarsened<<<grid, block>>>(in, out, rows, cols);
}
