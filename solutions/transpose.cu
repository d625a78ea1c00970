/*
 * transpose — the assessment: a tiled transpose whose shared-memory reads
 * are free of bank conflicts.
 *
 * `in` is rows × cols, row-major; `out` is cols × rows: out[c][r] = in[r][c].
 * Any rows ≥ 1 and cols ≥ 1 must work. It must run within 1.25× of the
 * reference solution on your GPU. Lesson: slides/transpose.md
 */
#include "cudalings/transpose.h"

#define TILE 32

__global__ void transpose_kernel(const float *in, float *out, int rows, int cols)
{
    // BEGIN SOLUTION: declare the shared tile so that the 32 elements of one of its columns fall in 32 different banks
    __shared__ float tile[TILE][TILE + 1];
    // STARTER
    // __shared__ float tile[TILE][TILE];
    // END SOLUTION

    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();

    // BEGIN SOLUTION: write the tile back transposed: block (bx, by) of `in` becomes block (by, bx) of `out`, with threadIdx.x walking along a row of `out`
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
    // END SOLUTION
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, TILE);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_kernel<<<grid, block>>>(in, out, rows, cols);
}
