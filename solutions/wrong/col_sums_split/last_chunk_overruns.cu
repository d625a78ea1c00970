// expect: run
// sim-only: on a GPU the reads past the end land in the allocation's slack, fault nowhere and
// add nothing to a column that exists, so only the simulator (or compute-sanitizer) sees them.
// The last chunk is not cut off at `rows`: when rows is no multiple of
// ROWS_PER_BLOCK its threads read past the end of `a`.
#include "cudalings/col_sums_split.h"

#define THREADS 256        // columns per block, one thread each
#define ROWS_PER_BLOCK 256 // rows per block: the timed 16384 rows make 64 chunks

__global__ void col_sums_split_kernel(const float *a, float *sums, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols)
        return;

    int first = blockIdx.y * ROWS_PER_BLOCK;
    int last = first + ROWS_PER_BLOCK; // the last chunk runs past the matrix

    float sum = 0.0f;
    for (int r = first; r < last; r++)
        sum += a[(size_t)r * cols + col];

    atomicAdd(&sums[col], sum);
}

void col_sums_split_launch(const float *a, float *sums, int rows, int cols)
{
    cudaMemsetAsync(sums, 0, (size_t)cols * sizeof(float));
    dim3 grid((cols + THREADS - 1) / THREADS, (rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK);
    col_sums_split_kernel<<<grid, THREADS>>>(a, sums, rows, cols);
}
