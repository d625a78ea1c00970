// exercise: transpose
// expect: pass
// message: cases correct
// Legitimate: the classic "diagonal block ordering" (blocks renumbered so
// that those running together touch different memory partitions), a padded
// tile, 32 x 8 threads; the grid is 1D and each block works out its tile.
#include "cudalings/transpose.h"

__global__ void transpose_diagonal(const float *in, float *out, int rows, int cols, int tiles_x, int tiles_y)
{
    __shared__ float tile[32][33];
    int id = blockIdx.x;
    int bx, by;
    if (tiles_x == tiles_y) {
        // diagonal reordering for square grids of tiles
        int row = id / tiles_x, col = id % tiles_x;
        by = col;
        bx = (col + row) % tiles_x;
    } else {
        bx = id % tiles_x;
        by = id / tiles_x;
    }
    int x = bx * 32 + threadIdx.x, y = by * 32 + threadIdx.y;
    for (int k = 0; k < 32; k += 8)
        if (x < cols && y + k < rows)
            tile[threadIdx.y + k][threadIdx.x] = in[(size_t)(y + k) * cols + x];
    __syncthreads();
    x = by * 32 + threadIdx.x;
    y = bx * 32 + threadIdx.y;
    for (int k = 0; k < 32; k += 8)
        if (x < rows && y + k < cols)
            out[(size_t)(y + k) * rows + x] = tile[threadIdx.x][threadIdx.y + k];
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    int tiles_x = (cols + 31) / 32, tiles_y = (rows + 31) / 32;
    transpose_diagonal<<<tiles_x * tiles_y, dim3(32, 8)>>>(in, out, rows, cols, tiles_x, tiles_y);
}
