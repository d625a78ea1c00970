// exercise: col_sums
// expect: compile
// message: calls 'cudaStreamCreate
// Work on a stream of its own runs outside the timed launch.
#include <cuda_runtime.h>
#include "cudalings/col_sums.h"
__global__ void k(float *s, int cols) { s[0] = 0; }
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    k<<<1, 1, 0, s>>>(sums, cols);
}
