/*
 * col_sums, gold: the column sums at the rate of a device-to-device copy (the
 * reference reads at about half of it).
 *
 * The reference's loads are all coalesced; what it lacks is work in flight.
 * One thread per column is 16,384 threads for the timed 16384 × 16384
 * matrix: 64 blocks of 256 for 132 multiprocessors that hold 2,048 threads
 * each, so most multiprocessors idle and the others are an eighth full. Here
 * the rows are split too: block (bx, by) sums chunk `by` of ROWS_PER_BLOCK
 * rows of its 256 columns (4,096 blocks for the timed matrix), and the
 * chunks' sums meet in sums[c] through atomicAdd, into an output set to 0
 * first.
 *
 * What did not help on an H100 (bench/gold-h100.md, the variants tried):
 * float4 loads of 4 columns per thread, 4 to 16 rows read before the first
 * add, chunks of 31 to 248 rows sized from the multiprocessor count. Each was
 * slower, by 0.5% to 4%: with every multiprocessor full, the loads in flight
 * already cover the memory's latency.
 */
#include "cudalings/col_sums.h"

#define THREADS 256        // columns per block, one thread each
#define ROWS_PER_BLOCK 256 // rows per block

__global__ void __launch_bounds__(THREADS)
col_sums_chunks(const float *__restrict__ a, float *__restrict__ sums, int rows, int cols)
{
    int col = blockIdx.x * THREADS + threadIdx.x;
    if (col >= cols)
        return;
    int first = blockIdx.y * ROWS_PER_BLOCK;
    int last = min(first + ROWS_PER_BLOCK, rows);
    float sum = 0.0f;
    for (int r = first; r < last; r++)
        sum += a[(size_t)r * cols + col];
    atomicAdd(&sums[col], sum);
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    cudaMemsetAsync(sums, 0, (size_t)cols * sizeof(float)); // the chunks add into it
    dim3 grid((cols + THREADS - 1) / THREADS, (rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK);
    col_sums_chunks<<<grid, THREADS>>>(a, sums, rows, cols);
}
