// exercise: col_sums
// expect: correctness|run
// message: block|expected
// An honest mistake: rows split across blocks in y, each block adding its
// partial sum into the zeroed output with a plain `+=` instead of atomicAdd.
// Blocks of one column run at the same time on a GPU and lose each other's
// updates; run one after the other they would not, so the verdict must come
// from a check on the order of blocks, naming the element two blocks wrote.
#include <cuda_runtime.h>
#include "cudalings/col_sums.h"

__global__ void partial_sums(const float *a, float *sums, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    int r0 = blockIdx.y * 32, r1 = min(rows, r0 + 32);
    float t = 0.0f;
    for (int r = r0; r < r1; r++)
        t += a[(size_t)r * cols + c];
    sums[c] += t;
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    cudaMemset(sums, 0, sizeof(float) * cols);
    partial_sums<<<dim3((cols + 255) / 256, (rows + 31) / 32), 256>>>(a, sums, rows, cols);
}
