// exercise: col_sums
// expect: compile
// message: calling a __device__ function("pick_threads()") from a __host__ function("col_sums_launch") is not allowed
// nvcc: rejects
// The launcher calls a __device__ function. g++ on the simulator would run
// it; nvcc's device side alone (-ptx) takes it too; `nvcc -c` refuses it on
// the host side (cudafe++), so the simulator must refuse it as well.
#include "cudalings/col_sums.h"

__device__ int pick_threads(void) { return 256; }

__global__ void col_sums_kernel(const float *a, float *sums, int rows, int cols)
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
    int threads = pick_threads();
    int blocks = (cols + threads - 1) / threads;
    col_sums_kernel<<<blocks, threads>>>(a, sums, rows, cols);
}
