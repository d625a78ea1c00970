// exercise: col_sums
// expect: compile
// message: calling a __host__ function
// A kernel that calls a host function: nvcc refuses it, so the simulator (which
// could run it) must refuse it too.
#include "cudalings/col_sums.h"
float twice(float x) { return 2 * x; }
__global__ void sums(const float *a, float *s, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    float t = 0;
    for (int r = 0; r < rows; r++)
        t += a[(size_t)r * cols + c];
    s[c] = twice(t) / 2;
}
void col_sums_launch(const float *a, float *s, int rows, int cols)
{
    sums<<<(cols + 255) / 256, 256>>>(a, s, rows, cols);
}
