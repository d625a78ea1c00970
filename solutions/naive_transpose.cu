/*
 * naive_transpose (demo) — out[c][r] = in[r][c] straight through global
 * memory, one thread per element: the baseline of tile_transpose and transpose.
 *
 * threadIdx.x walks along a row of `in`, so a warp reads 32 neighbours
 * (coalesced) and writes 32 elements of a column of `out`, `rows` floats
 * apart (32 sectors). Run it beside its variant: cudalings run naive_transpose.
 * Lesson: slides/naive_transpose.md
 */
#include "cudalings/naive_transpose.h"

__global__ void naive_transpose_kernel(const float *in, float *out, int rows, int cols)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x; // column of `in`
    int y = blockIdx.y * blockDim.y + threadIdx.y; // row of `in`
    if (x < cols && y < rows)
        out[(size_t)x * rows + y] = in[(size_t)y * cols + x];
}

void naive_transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 32);
    dim3 grid((cols + 31) / 32, (rows + 31) / 32);
    naive_transpose_kernel<<<grid, block>>>(in, out, rows, cols);
}
