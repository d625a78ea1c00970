// exercise: tile_transpose
// expect: pass
// message: cases correct
// Legitimate: 1D blocks of 256 threads, each thread working out its own
// (row, column) in a padded 32 x 32 tile in a loop of four; the grid 2D over
// tiles. Half the block idles on an edge tile that is half outside.
#include "cudalings/tile_transpose.h"

__global__ void transpose_flat(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][33];
    int tx = threadIdx.x & 31, ty = threadIdx.x >> 5; // 32 x 8
    for (int k = 0; k < 32; k += 8) {
        int x = blockIdx.x * 32 + tx, y = blockIdx.y * 32 + ty + k;
        if (x < cols && y < rows)
            tile[ty + k][tx] = in[(size_t)y * cols + x];
    }
    __syncthreads();
    for (int k = 0; k < 32; k += 8) {
        int x = blockIdx.y * 32 + tx, y = blockIdx.x * 32 + ty + k;
        if (x < rows && y < cols)
            out[(size_t)y * rows + x] = tile[tx][ty + k];
    }
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    transpose_flat<<<dim3((cols + 31) / 32, (rows + 31) / 32), 256>>>(in, out, rows, cols);
}
