// variant: the other way round: threadIdx.x walks along a row of `out`, so the writes are coalesced and the reads go down a column of `in`
#include "cudalings/naive_transpose.h"

__global__ void transpose_by_output(const float *in, float *out, int rows, int cols)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x; // column of `out`, that is row of `in`
    int y = blockIdx.y * blockDim.y + threadIdx.y; // row of `out`, that is column of `in`
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = in[(size_t)x * cols + y];
}

void naive_transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 32);
    dim3 grid((rows + 31) / 32, (cols + 31) / 32);
    transpose_by_output<<<grid, block>>>(in, out, rows, cols);
}
