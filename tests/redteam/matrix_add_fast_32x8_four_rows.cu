// exercise: matrix_add
// expect: pass
// message: cases correct
// Legitimate and fast: blocks of 32 x 8 threads, each thread four rows
// (thread coarsening, #pragma unroll), __ldg loads through __restrict__
// pointers, a kernel in a namespace behind a macro, and error checking after
// the launch with cudaPeekAtLastError.
#include <cstdio>
#include <cuda_runtime.h>
#include "cudalings/matrix_add.h"

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) fprintf(stderr, "%s\n", cudaGetErrorString(e_)); } while (0)

namespace mine {
constexpr int BX = 32, BY = 8, PER = 4;

__global__ void __launch_bounds__(BX * BY)
add(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ out, int rows, int cols)
{
    int col = blockIdx.x * BX + threadIdx.x;
    int row0 = blockIdx.y * BY * PER + threadIdx.y;
    if (col >= cols)
        return;
    #pragma unroll
    for (int k = 0; k < PER; k++) {
        int row = row0 + k * BY;
        if (row < rows) {
            size_t i = (size_t)row * cols + col;
            out[i] = __ldg(&a[i]) + __ldg(&b[i]);
        }
    }
}
} // namespace mine

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    dim3 block(mine::BX, mine::BY);
    dim3 grid((cols + mine::BX - 1) / mine::BX, (rows + mine::BY * mine::PER - 1) / (mine::BY * mine::PER));
    mine::add<<<grid, block>>>(a, b, out, rows, cols);
    CHECK(cudaPeekAtLastError());
}
