/*
 * transpose_coarse — the conflict-free tile transpose of `transpose`, with a
 * quarter of the threads, each moving four elements (thread coarsening).
 *
 * `in` is rows × cols, row-major; `out` is cols × rows: out[c][r] = in[r][c].
 * Any rows ≥ 1 and cols ≥ 1 must work. A block of 32 × 8 threads moves a
 * 32 × 32 tile: thread (tx, ty) loads rows ty, ty + 8, ty + 16 and ty + 24
 * of it, and writes four rows of `out` the same way. It must run within
 * 1.25× of this reference on your GPU. Lesson: slides/transpose_coarse.md
 */
#include "cudalings/transpose_coarse.h"

#define TILE 32 // the tile is TILE × TILE elements
#define ROWS 8  // threads down a block: each moves TILE / ROWS = 4 elements

__global__ void transpose_coarse_kernel(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1]; // the spare column: a column read touches 32 banks

    int x = blockIdx.x * TILE + threadIdx.x; // column of `in`
    int y = blockIdx.y * TILE + threadIdx.y; // first of this thread's rows of `in`
    // BEGIN SOLUTION: load the whole tile: this thread's rows of it are threadIdx.y, threadIdx.y + ROWS, …, below TILE; each row that exists in `in` (y + j < rows, x < cols)
    for (int j = 0; j < TILE; j += ROWS)
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    // STARTER
    // if (x < cols && y < rows)
    //     tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    // END SOLUTION
    __syncthreads();

    x = blockIdx.y * TILE + threadIdx.x; // column of `out`
    y = blockIdx.x * TILE + threadIdx.y; // first of this thread's rows of `out`
    // BEGIN SOLUTION: write the tile back transposed, four rows of `out` per thread in the same pattern, each element that exists in `out` (y + j < cols, x < rows)
    for (int j = 0; j < TILE; j += ROWS)
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
    // STARTER
    // if (x < rows && y < cols)
    //     out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
    // END SOLUTION
}

void transpose_coarse_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, ROWS);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_coarse_kernel<<<grid, block>>>(in, out, rows, cols);
}
