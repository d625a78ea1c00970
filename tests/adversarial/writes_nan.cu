// exercise: col_sums
// expect: correctness
// message: is NaN
#include "cudalings/col_sums.h"
__global__ void k(float *sums, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col < cols)
        sums[col] = __int_as_float(0x7fc00000);
}
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    k<<<(cols + 255) / 256, 256>>>(sums, cols);
}
