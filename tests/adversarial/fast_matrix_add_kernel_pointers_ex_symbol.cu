// exercise: matrix_add
// expect: pass
// message: all
// A legitimate launcher that reaches its kernels through the runtime's other doors: a kernel picked
// through a function pointer and launched with cudaLaunchKernel, a second one with cudaLaunchKernelEx,
// a __constant__ copied with cudaMemcpyToSymbol when the size changes, and its errors checked. On a GPU the
// grader records these calls and replays them where no host code of the submission's runs: each must
// be recorded as what it is, at today's speed; the simulator runs both as <<<>>> launches.
#include <cstdio>
#include "cudalings/matrix_add.h"

__constant__ int first_row_of_second_half;

__global__ void add_top(const float *a, const float *b, float *out, int rows, int cols)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < first_row_of_second_half && r < rows && c < cols)
        out[(size_t)r * cols + c] = a[(size_t)r * cols + c] + b[(size_t)r * cols + c];
}

__global__ void add_bottom(const float *a, const float *b, float *out, int rows, int cols)
{
    int r = first_row_of_second_half + blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && c < cols)
        out[(size_t)r * cols + c] = a[(size_t)r * cols + c] + b[(size_t)r * cols + c];
}

typedef void kernel_t(const float *, const float *, float *, int, int);

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    /* the constant changes with the size only: copied when it does, as a launcher would */
    static int copied = -1;
    int half = rows / 2;
    if (half != copied)
        cudaMemcpyToSymbol(first_row_of_second_half, &half, sizeof(half));
    copied = half;
    dim3 block(32, 8);
    kernel_t *top = add_top;
    void *args[] = { &a, &b, &out, &rows, &cols };
    if (half > 0)
        cudaLaunchKernel((const void *)top, dim3((cols + 31) / 32, (half + 7) / 8), block, args, 0, 0);
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((cols + 31) / 32, (rows - half + 7) / 8);
    config.blockDim = block;
    cudaLaunchKernelEx(&config, add_bottom, a, b, out, rows, cols);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        printf("matrix_add_launch: %s\n", cudaGetErrorString(e));
}
