// exercise: col_sums
// expect: pass
// message: cases correct
// Correct, but in the small cases every thread prints, over and over: the
// grader keeps what fits and goes on. (The timed case gets a quiet kernel: a
// printf in the loop would rightly fail it at performance on a GPU.)
#include <cstdio>
#include "cudalings/col_sums.h"
__global__ void col_sums_chatty(const float *a, float *sums, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols)
        return;
    float sum = 0.0f;
    for (int r = 0; r < rows; r++) {
        sum += a[(size_t)r * cols + col];
        if (r < 8)
            printf("column %d row %d partial %f\n", col, r, sum);
    }
    sums[col] = sum;
}
__global__ void col_sums_quiet(const float *a, float *sums, int rows, int cols)
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
    if ((size_t)rows * cols < 1000000)
        col_sums_chatty<<<(cols + 255) / 256, 256>>>(a, sums, rows, cols);
    else
        col_sums_quiet<<<(cols + 255) / 256, 256>>>(a, sums, rows, cols);
}
