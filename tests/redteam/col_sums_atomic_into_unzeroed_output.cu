// exercise: col_sums
// expect: correctness
// message: NaN
// An honest mistake: rows split across blocks, partial sums combined with
// atomicAdd, but the output is never zeroed first. The grader poisons
// outputs with NaN, so every column comes out NaN: the message must say the
// output was updated from what it held, not that it was never written.
#include "cudalings/col_sums.h"

__global__ void partial_sums(const float *a, float *sums, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    int r0 = blockIdx.y * 64, r1 = min(rows, r0 + 64);
    float t = 0.0f;
    for (int r = r0; r < r1; r++)
        t += a[(size_t)r * cols + c];
    atomicAdd(&sums[c], t);
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    partial_sums<<<dim3((cols + 255) / 256, (rows + 63) / 64), 256>>>(a, sums, rows, cols);
}
