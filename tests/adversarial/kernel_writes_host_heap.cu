// exercise: matrix_add
// expect: run
// message: an illegal memory address
// A kernel copies the inputs into malloc'd host memory (the pointer hidden
// in a struct), the host adds them, and a second kernel copies the sum out.
// Simulated kernels run on the host, but a GPU's cannot touch host memory
// (an H100 without pageable memory access faults: tests/gpu/host_memory.sh);
// the simulator says "wrote host memory" and where.
#include <cstdlib>
#include "cudalings/matrix_add.h"

struct staging { float *a, *b, *sum; };

__global__ void stage_in(const float *a, const float *b, staging s, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) {
        s.a[i] = a[i];
        s.b[i] = b[i];
    }
}

__global__ void stage_out(staging s, float *out, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = s.sum[i];
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    staging s;
    s.a = (float *)malloc(n * sizeof(float));
    s.b = (float *)malloc(n * sizeof(float));
    s.sum = (float *)malloc(n * sizeof(float));
    stage_in<<<(n + 255) / 256, 256>>>(a, b, s, n);
    cudaDeviceSynchronize();
    for (size_t i = 0; i < n; i++)
        s.sum[i] = s.a[i] + s.b[i];
    stage_out<<<(n + 255) / 256, 256>>>(s, out, n);
    cudaDeviceSynchronize();
    free(s.a);
    free(s.b);
    free(s.sum);
}
