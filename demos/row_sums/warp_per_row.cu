// variant: a warp per row: its 32 lanes read 32 neighbours of the row at each step, then add their 32 partial sums with shuffles
#include "cudalings/row_sums.h"

__global__ void row_sums_warp(const float *a, float *sums, int rows, int cols)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32; // the same for the 32 lanes of a warp
    int lane = threadIdx.x % 32;
    if (row >= rows)
        return; // the whole warp leaves together
    float sum = 0.0f;
    for (int c = lane; c < cols; c += 32)
        sum += a[(size_t)row * cols + c];
    // lane 0 collects: after the step with offset 16 it holds lanes 0 and 16, after 8 also 8 and 24, …
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0)
        sums[row] = sum;
}

void row_sums_launch(const float *a, float *sums, int rows, int cols)
{
    int threads = 256; // 8 warps, 8 rows per block
    int blocks = (rows + threads / 32 - 1) / (threads / 32);
    row_sums_warp<<<blocks, threads>>>(a, sums, rows, cols);
}
