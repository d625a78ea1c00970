/*
 * col_sums_split — the column sums of col_sums, with the rows split across
 * blocks so that every multiprocessor has work.
 *
 * `a` is rows × cols floats, row-major: element (r, c) is a[r * cols + c].
 * Write sums[c] = a[0][c] + a[1][c] + … + a[rows-1][c] for every column c.
 * Any rows ≥ 1 and cols ≥ 1 must work. `sums` arrives filled with NaN.
 *
 * A block sums a chunk of ROWS_PER_BLOCK rows of its 256 columns: blockIdx.x
 * picks the columns, blockIdx.y the chunk. The chunks of one column meet in
 * sums[c] through atomicAdd. It must run within 1.25× of this reference on
 * your GPU. Lesson: slides/col_sums_split.md
 */
#include "cudalings/col_sums_split.h"

#define THREADS 256        // columns per block, one thread each
#define ROWS_PER_BLOCK 256 // rows per block: the timed 16384 rows make 64 chunks

__global__ void col_sums_split_kernel(const float *a, float *sums, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols)
        return;

    // TODO: this block's chunk: ROWS_PER_BLOCK rows from row blockIdx.y * ROWS_PER_BLOCK, the last chunk cut off at `rows`
    int first = 0;
    int last = 0;

    float sum = 0.0f;
    for (int r = first; r < last; r++)
        sum += a[(size_t)r * cols + col];

    // TODO: add the chunk's sum into sums[col], where the other chunks of this column add theirs at the same time
    sums[col] = sum;
}

void col_sums_split_launch(const float *a, float *sums, int rows, int cols)
{
    // TODO: sums arrives filled with NaN, and the blocks add into it: set it to zero first (cudaMemsetAsync)
    // TODO: a 2D grid: across, enough blocks of THREADS for the columns; down, one block per chunk of ROWS_PER_BLOCK rows
    dim3 grid((cols + THREADS - 1) / THREADS, 1);
    col_sums_split_kernel<<<grid, THREADS>>>(a, sums, rows, cols);
}
