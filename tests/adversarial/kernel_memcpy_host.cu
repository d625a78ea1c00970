// exercise: col_sums
// expect: run
// message: an illegal memory address
// Kernels move the data with memcpy between device memory and a malloc'd
// host buffer whose address hides in a struct; the host sums the columns.
#include <cstdlib>
#include <cstring>
#include "cudalings/col_sums.h"

struct wrap { float *p; };
__global__ void out_wrapped(const float *a, wrap w, size_t bytes)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        memcpy(w.p, a, bytes);
}
__global__ void back_wrapped(float *sums, wrap w, size_t bytes)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        memcpy(sums, w.p, bytes);
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    wrap w = { (float *)malloc(n * sizeof(float)) }, s = { (float *)calloc(cols, sizeof(float)) };
    out_wrapped<<<1, 1>>>(a, w, n * sizeof(float));
    cudaDeviceSynchronize();
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            s.p[c] += w.p[(size_t)r * cols + c];
    back_wrapped<<<1, 1>>>(sums, s, cols * sizeof(float));
    cudaDeviceSynchronize();
}
