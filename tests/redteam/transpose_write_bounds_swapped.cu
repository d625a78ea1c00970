// exercise: transpose
// expect: correctness|run
// message: write the same|past the end
// An honest mistake: the write-back keeps the read's bounds test
// (x < cols && y < rows) though out is cols x rows, so on a matrix that is
// not square some threads write past the end and some elements are never
// written.
#include "cudalings/transpose.h"

__global__ void transpose_bad_bounds(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    if (x < cols && y < rows)
        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    transpose_bad_bounds<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 32)>>>(in, out, rows, cols);
}
