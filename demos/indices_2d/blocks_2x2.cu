// variant: the DLI's picture: blocks of 2 x 2 threads, so a 4 x 4 matrix takes a grid of 2 x 2 blocks; the same (x, y) from other blocks and threads
#include "cudalings/indices_2d.h"

#include <cstdio>

__global__ void indices_small_blocks(float *xs, float *ys, int rows, int cols)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= cols || y >= rows)
        return;
    if (rows * cols <= 16)
        printf("block (%d, %d) thread (%d, %d): x = %d, y = %d, element [%d][%d]\n",
               blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y, x, y, y, x);
    xs[(size_t)y * cols + x] = x;
    ys[(size_t)y * cols + x] = y;
}

void indices_2d_launch(float *xs, float *ys, int rows, int cols)
{
    dim3 block(2, 2); // 4 threads: far too few for speed, only for the picture
    dim3 grid((cols + 1) / 2, (rows + 1) / 2);
    indices_small_blocks<<<grid, block>>>(xs, ys, rows, cols);
}
