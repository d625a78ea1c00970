// exercise: matrix_add
// expect: pass
// message: cases correct
// Legitimate: launched on cudaStreamPerThread, as code written for
// --default-stream per-thread does. No stream is created; the per-thread
// default stream is a blocking stream, ordered with the legacy default stream
// the harness times on, so the events still see the whole kernel.
#include <cuda_runtime.h>
#include "cudalings/matrix_add.h"

__global__ void add(const float *a, const float *b, float *out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        size_t i = (size_t)row * cols + col;
        out[i] = a[i] + b[i];
    }
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    add<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8), 0, cudaStreamPerThread>>>(a, b, out, rows, cols);
}
