// exercise: col_sums
// expect: correctness
// diagnosis: race
// message: two blocks write the same element
// sim-only
// The rows are split among four blocks in y, and each block stores its partial
// sum with `=`: the blocks overwrite each other, and whichever runs last wins.
// On a GPU the result is just wrong (no tool names the race); atomicAdd into a
// zeroed output is the fix.
#include "cudalings/col_sums.h"

#define SLICES 4

__global__ void col_sums_kernel(const float *a, float *sums, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols)
        return;
    int per_slice = (rows + SLICES - 1) / SLICES;
    int first = blockIdx.y * per_slice, last = min(rows, first + per_slice);

    float sum = 0.0f;
    for (int r = first; r < last; r++)
        sum += a[(size_t)r * cols + col];
    sums[col] = sum;
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    int threads = 256;
    dim3 blocks((cols + threads - 1) / threads, SLICES);
    col_sums_kernel<<<blocks, threads>>>(a, sums, rows, cols);
}
