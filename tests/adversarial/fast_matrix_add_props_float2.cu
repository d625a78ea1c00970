// exercise: matrix_add
// expect: pass
// message: cases correct
// Legitimate and fast: float2 loads and __stcs stores in a grid-stride loop
// sized from cudaGetDeviceProperties, the odd tail element by element;
// scratch-free, with the launch checked by cudaGetLastError.
#include <cstdio>
#include <cuda_runtime.h>
#include "cudalings/matrix_add.h"

__global__ void add2(const float2 *__restrict__ a, const float2 *__restrict__ b, float2 *__restrict__ out,
                     size_t pairs)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < pairs; i += (size_t)gridDim.x * blockDim.x) {
        float2 x = __ldg(&a[i]), y = __ldg(&b[i]);
        __stcs(&out[i], make_float2(x.x + y.x, x.y + y.y));
    }
}

__global__ void add_tail(const float *a, const float *b, float *out, size_t from, size_t n)
{
    size_t i = from + threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    size_t n = (size_t)rows * cols, pairs = n / 2;
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int threads = 256;
    int blocks = prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / threads);
    if (blocks < 1)
        blocks = 1;
    if ((size_t)blocks * threads > pairs)
        blocks = (int)((pairs + threads - 1) / threads);
    if (pairs)
        add2<<<blocks, threads>>>((const float2 *)a, (const float2 *)b, (float2 *)out, pairs);
    if (n % 2)
        add_tail<<<1, 32>>>(a, b, out, pairs * 2, n);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        fprintf(stderr, "matrix_add: %s\n", cudaGetErrorString(err));
}
