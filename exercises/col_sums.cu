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
    // TODO: give each thread its own column, and let threads past the last column stop
    int col = 0;

    float sum = 0.0f;
    // TODO: walk down the column; element (r, col) is a[(size_t)r * cols + col]
    sums[col] = sum;
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    // TODO: one thread per column: 256 threads per block, enough blocks to cover every column
    int threads = 1;
    int blocks = 1;
    col_sums_kernel<<<blocks, threads>>>(a, sums, rows, cols);
}
