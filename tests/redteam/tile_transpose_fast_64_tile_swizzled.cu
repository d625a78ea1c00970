// exercise: tile_transpose
// expect: pass
// message: cases correct
// Legitimate and fast: 64 x 64 tiles (16 KiB of shared memory, no padding)
// with the column index XOR-swizzled by the row so that a column read is
// conflict-free; blocks of 64 x 4 threads, 16 rows each.
#include "cudalings/tile_transpose.h"

constexpr int T = 64, BY = 4;

__device__ __forceinline__ int swz(int row, int col) { return col ^ (row & 31); }

__global__ void transpose64(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[T][T];
    int x = blockIdx.x * T + threadIdx.x;
    int y0 = blockIdx.y * T;
    for (int r = threadIdx.y; r < T; r += BY)
        if (x < cols && y0 + r < rows)
            tile[r][swz(r, threadIdx.x)] = in[(size_t)(y0 + r) * cols + x];
    __syncthreads();
    int ox = blockIdx.y * T + threadIdx.x; // a column of `in`'s tile, now along a row of `out`
    int oy0 = blockIdx.x * T;
    for (int r = threadIdx.y; r < T; r += BY)
        if (ox < rows && oy0 + r < cols)
            out[(size_t)(oy0 + r) * rows + ox] = tile[threadIdx.x][swz(threadIdx.x, r)];
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    transpose64<<<dim3((cols + T - 1) / T, (rows + T - 1) / T), dim3(T, BY)>>>(in, out, rows, cols);
}
