// expect: correctness
// The chunks add into sums with atomicAdd, but nothing set sums to 0 first:
// it arrives filled with NaN, and NaN plus anything stays NaN.
#include "cudalings/col_sums_split.h"

#define THREADS 256        // columns per block, one thread each
#define ROWS_PER_BLOCK 256 // rows per block: the timed 16384 rows make 64 chunks

__global__ void col_sums_split_kernel(const float *a, float *sums, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols)
        return;

    int first = blockIdx.y * ROWS_PER_BLOCK;
    int last = min(first + ROWS_PER_BLOCK, rows);

    float sum = 0.0f;
    for (int r = first; r < last; r++)
        sum += a[(size_t)r * cols + col];

    atomicAdd(&sums[col], sum);
}

void col_sums_split_launch(const float *a, float *sums, int rows, int cols)
{
    dim3 grid((cols + THREADS - 1) / THREADS, (rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK);
    col_sums_split_kernel<<<grid, THREADS>>>(a, sums, rows, cols);
}
