// expect: correctness
// sim-only: on a GPU how many of the chunks' additions are lost depends on timing
// sums is zeroed and every chunk adds its sum with a plain `sums[col] += sum`:
// chunks of one column read the same old value at once on a GPU and all but
// one addition is lost. The simulator runs blocks one after another, where
// every addition lands in either order; it names the block that read a
// column another block wrote and then wrote it back.
#include "cudalings/col_sums_split.h"

#define THREADS 256
#define ROWS_PER_BLOCK 256

__global__ void col_sums_plain_add(const float *a, float *sums, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols)
        return;
    int first = blockIdx.y * ROWS_PER_BLOCK;
    int last = min(first + ROWS_PER_BLOCK, rows);
    float sum = 0.0f;
    for (int r = first; r < last; r++)
        sum += a[(size_t)r * cols + col];
    sums[col] += sum;
}

void col_sums_split_launch(const float *a, float *sums, int rows, int cols)
{
    cudaMemsetAsync(sums, 0, (size_t)cols * sizeof(float));
    dim3 grid((cols + THREADS - 1) / THREADS, (rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK);
    col_sums_plain_add<<<grid, THREADS>>>(a, sums, rows, cols);
}
