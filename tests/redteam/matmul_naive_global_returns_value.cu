// exercise: matmul_naive
// expect: compile
// message: void return type
// nvcc: rejects
// Code nvcc rejects: a __global__ function that returns a value (nvcc: "a
// __global__ function must have a void return type"). A host compiler takes
// it; the simulator must report nvcc's error.
#include "cudalings/matmul_naive.h"

__global__ int matmul_returns(const float *a, const float *b, float *c, int m, int k, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return 0;
    float sum = 0.0f;
    for (int i = 0; i < k; i++)
        sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
    c[(size_t)row * n + col] = sum;
    return 1;
}

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    matmul_returns<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(a, b, c, m, k, n);
}
