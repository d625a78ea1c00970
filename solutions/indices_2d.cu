/*
 * indices_2d (demo) — what (x, y) in a 2D grid of 2D blocks is. Every thread
 * works out its own
 *     x = blockIdx.x * blockDim.x + threadIdx.x
 *     y = blockIdx.y * blockDim.y + threadIdx.y
 * and writes them into the element it is responsible for: row y, column x
 * of rows × cols matrices, so xs[r][c] == c and ys[r][c] == r.
 * On a matrix of at most 16 elements each thread also prints who it is.
 * Run it beside its variants: cudalings run indices_2d. Lesson: slides/indices_2d.md
 */
#include "cudalings/indices_2d.h"

#include <cstdio>

__global__ void indices_2d_kernel(float *xs, float *ys, int rows, int cols)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= cols || y >= rows)
        return; // the grid is rounded up to whole blocks: these threads have no element
    if (rows * cols <= 16)
        printf("block (%d, %d) thread (%d, %d): x = %d, y = %d, element [%d][%d]\n",
               blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, x, y, y, x);
    size_t i = (size_t)y * cols + x;
    xs[i] = x;
    ys[i] = y;
}

void indices_2d_launch(float *xs, float *ys, int rows, int cols)
{
    dim3 block(32, 32);
    dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
    indices_2d_kernel<<<grid, block>>>(xs, ys, rows, cols);
}
