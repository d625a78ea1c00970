// exercise: col_sums
// expect: run
// message: launching the kernel
// Ignores a failed allocation and writes through the null pointer it left.
#include <cuda_runtime.h>
#include "cudalings/col_sums.h"
__global__ void fill(float *p) { p[threadIdx.x] = 1.0f; }
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    float *p = 0;
    cudaMalloc(&p, (size_t)1 << 50);
    fill<<<1, 32>>>(p);
}
