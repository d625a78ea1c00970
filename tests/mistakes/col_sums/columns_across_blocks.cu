// exercise: col_sums
// expect: performance
// diagnosis: uncoalesced
// message: the costliest line is tests/mistakes/col_sums/columns_across_blocks.cu:20
// Right sums, but the columns are dealt out across blocks: thread t of block
// b takes column t * gridDim.x + b, so the 32 lanes of a warp read columns
// gridDim.x apart. With one block (gridDim.x = 1) this is the coalesced
// mapping, which is why the simulator measures a case whose grid has at least
// two blocks even of 1024 threads, as this launcher uses.
#include "cudalings/col_sums.h"

__global__ void col_sums_kernel(const float *a, float *sums, int rows, int cols)
{
    int col = threadIdx.x * gridDim.x + blockIdx.x; // neighbouring lanes, gridDim.x columns apart
    if (col >= cols)
        return;

    float sum = 0.0f;
    for (int r = 0; r < rows; r++)
        sum += a[(size_t)r * cols + col];
    sums[col] = sum;
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    int threads = 1024; // the widest block: two blocks still cover the measured case
    int blocks = (cols + threads - 1) / threads;
    col_sums_kernel<<<blocks, threads>>>(a, sums, rows, cols);
}
