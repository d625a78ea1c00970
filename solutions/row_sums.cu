/*
 * row_sums (demo) — the sum of every row of a matrix, one thread per row:
 * the baseline that col_sums is measured against.
 *
 * `a` is rows × cols floats, row-major; sums[r] = a[r][0] + … + a[r][cols-1].
 * At every step of the loop the 32 threads of a warp read one float from 32
 * different rows, `cols` floats apart: 32 sectors for 32 floats.
 * Run it beside its variant: cudalings run row_sums. Lesson: slides/row_sums.md
 */
#include "cudalings/row_sums.h"

__global__ void row_sums_kernel(const float *a, float *sums, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows)
        return;
    float sum = 0.0f;
    for (int c = 0; c < cols; c++)
        sum += a[(size_t)row * cols + c];
    sums[row] = sum;
}

void row_sums_launch(const float *a, float *sums, int rows, int cols)
{
    int threads = 256;
    int blocks = (rows + threads - 1) / threads;
    row_sums_kernel<<<blocks, threads>>>(a, sums, rows, cols);
}
