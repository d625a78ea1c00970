// exercise: col_sums
// expect: pass
// message: cases correct
// Legitimate and fast: the rows split across blocks (enough blocks for every
// multiprocessor), partial sums combined with atomicAdd into a zeroed output.
#include <cuda_runtime.h>
#include "cudalings/col_sums.h"
// rows split across blocks in y; partial sums combined with atomics
__global__ void partial(const float *a, float *s, int rows, int cols, int rows_per_block)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    int r0 = blockIdx.y * rows_per_block, r1 = min(rows, r0 + rows_per_block);
    float t = 0;
    for (int r = r0; r < r1; r++)
        t += a[(size_t)r * cols + c];
    atomicAdd(&s[c], t);
}
void col_sums_launch(const float *a, float *s, int rows, int cols)
{
    cudaMemsetAsync(s, 0, cols * sizeof(float));
    int per = 256;
    dim3 grid((cols + 255) / 256, (rows + per - 1) / per);
    partial<<<grid, 256>>>(a, s, rows, cols, per);
}
