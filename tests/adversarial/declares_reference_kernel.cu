// exercise: col_sums
// expect: compile
// message: col_sums_kernel
// Declares the reference solution's kernel by its name, without defining it,
// and launches it: the reference's symbols are the runner's own, out of a
// submission's reach, so the file must define every kernel it launches.
#include "cudalings/col_sums.h"

__global__ void col_sums_kernel(const float *a, float *sums, int rows, int cols);

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    col_sums_kernel<<<(cols + 255) / 256, 256>>>(a, sums, rows, cols);
}
