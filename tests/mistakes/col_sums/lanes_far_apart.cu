// exercise: col_sums
// expect: performance
// diagnosis: uncoalesced
// message: sectors of 32 bytes per request
// Right sums, but the 32 lanes of a warp take columns far apart: every load
// touches 32 sectors where 4 would do.
#include "cudalings/col_sums.h"

__global__ void col_sums_kernel(const float *a, float *sums, int rows, int cols)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int per_lane = (cols + 31) / 32;
    int col = (t % 32) * per_lane + t / 32; // neighbouring lanes, columns far apart
    if (t >= 32 * per_lane)
        return;
    if (col >= cols)
        return;

    float sum = 0.0f;
    for (int r = 0; r < rows; r++)
        sum += a[(size_t)r * cols + col];
    sums[col] = sum;
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    int threads = 256;
    int blocks = (32 * ((cols + 31) / 32) + threads - 1) / threads;
    col_sums_kernel<<<blocks, threads>>>(a, sums, rows, cols);
}
