// exercise: col_sums
// expect: correctness
// message: never written
// Computes on the first call only: later launches leave the poisoned output.
#include "cudalings/col_sums.h"
__global__ void k(const float *a, float *sums, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols)
        return;
    float sum = 0.0f;
    for (int r = 0; r < rows; r++)
        sum += a[(size_t)r * cols + col];
    sums[col] = sum;
}
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    static bool done;
    if (!done)
        k<<<(cols + 255) / 256, 256>>>(a, sums, rows, cols);
    done = true;
}
