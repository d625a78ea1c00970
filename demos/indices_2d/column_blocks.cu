// variant: blocks of 1 x 256 threads, one column wide: the 32 threads of a warp share x and run down a column, so their writes are 32 rows apart
#include "cudalings/indices_2d.h"

__global__ void indices_column_blocks(float *xs, float *ys, int rows, int cols)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x; // threadIdx.x is always 0 here
    int y = blockIdx.y * blockDim.y + threadIdx.y; // consecutive threads: consecutive rows
    if (x < cols && y < rows) {
        xs[(size_t)y * cols + x] = x;
        ys[(size_t)y * cols + x] = y;
    }
}

void indices_2d_launch(float *xs, float *ys, int rows, int cols)
{
    dim3 block(1, 256);
    dim3 grid(cols, (rows + 255) / 256);
    indices_column_blocks<<<grid, block>>>(xs, ys, rows, cols);
}
