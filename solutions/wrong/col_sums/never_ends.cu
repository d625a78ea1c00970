// expect: run
// A kernel that waits for something that never happens: the grader must stop
// it and say which case hung, not hang itself.
#include "cudalings/col_sums.h"

__global__ void col_sums_forever(const float *a, float *sums, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols)
        return;
    // waits for a value nobody writes; volatile, so the compiler cannot drop the loop
    volatile float *flag = sums;
    while (flag[col] != 12345.0f) {
    }
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    col_sums_forever<<<(cols + 255) / 256, 256>>>(a, sums, rows, cols);
}
