// exercise: transpose
// expect: performance
// diagnosis: uncoalesced
// message: global loads touch
// The naive transpose turned round: no tile at all, each thread copies one
// element, and threadIdx.x walks along a row of out, so the writes are
// coalesced while a warp's 32 reads go down a column of in, 32 rows apart.
// On an H100 the L1 and L2 absorb enough of the scattered reads for it to
// run inside the time (0.74x tile_transpose's reference, 1.22x transpose's):
// the exercise's sector budget, measured by Nsight Compute there and by the
// simulator here, is what fails it.
#include "cudalings/transpose.h"

#define TILE 32

__global__ void transpose_kernel(const float *in, float *out, int rows, int cols)
{
    // (x, y): column and row of out, which is cols x rows
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = in[(size_t)x * cols + y];
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, TILE);
    dim3 grid((rows + TILE - 1) / TILE, (cols + TILE - 1) / TILE);
    transpose_kernel<<<grid, block>>>(in, out, rows, cols);
}
