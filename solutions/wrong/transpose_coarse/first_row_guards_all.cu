// expect: run
// sim-only: on a GPU the reads past the end land in the allocation's slack and fault nowhere,
// and what they read is never stored, so only the simulator (or compute-sanitizer) sees them.
// Only the first of a thread's four rows is tested against the edge of `in`:
// in the bottom tiles the other three read past its end.
#include "cudalings/transpose_coarse.h"

#define TILE 32 // the tile is TILE × TILE elements
#define ROWS 8  // threads down a block: each moves TILE / ROWS = 4 elements

__global__ void transpose_coarse_kernel(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1]; // the spare column: a column read touches 32 banks

    int x = blockIdx.x * TILE + threadIdx.x; // column of `in`
    int y = blockIdx.y * TILE + threadIdx.y; // first of this thread's rows of `in`
    for (int j = 0; j < TILE; j += ROWS)
        if (x < cols && y < rows) // only the first row tested
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    __syncthreads();

    x = blockIdx.y * TILE + threadIdx.x; // column of `out`
    y = blockIdx.x * TILE + threadIdx.y; // first of this thread's rows of `out`
    for (int j = 0; j < TILE; j += ROWS)
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose_coarse_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, ROWS);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_coarse_kernel<<<grid, block>>>(in, out, rows, cols);
}
