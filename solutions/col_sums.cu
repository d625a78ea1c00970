/*
 * col_sums — the sum of every column of a matrix, one thread per column.
 *
 * `a` is rows × cols floats, row-major: element (r, c) is a[r * cols + c].
 * Write sums[c] = a[0][c] + a[1][c] + … + a[rows-1][c] for every column c.
 * Any rows ≥ 1 and cols ≥ 1 must work. Lesson: slides/col_sums.md
 */
#include "cudalings/col_sums.h"

__global__ void col_sums_kernel(const float *a, float *sums, int rows, int cols)
{
    // BEGIN SOLUTION: give each thread its own column, and let threads past the last column stop
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols)
        return;
    // STARTER
    // int col = 0;
    // END SOLUTION

    float sum = 0.0f;
    // BEGIN SOLUTION: walk down the column; element (r, col) is a[(size_t)r * cols + col]
    for (int r = 0; r < rows; r++)
        sum += a[(size_t)r * cols + col];
    // END SOLUTION
    sums[col] = sum;
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    // BEGIN SOLUTION: one thread per column: 256 threads per block, enough blocks to cover every column
    int threads = 256;
    int blocks = (cols + threads - 1) / threads;
    // STARTER
    // int threads = 1;
    // int blocks = 1;
    // END SOLUTION
    col_sums_kernel<<<blocks, threads>>>(a, sums, rows, cols);
}
