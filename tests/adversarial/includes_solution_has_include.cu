// exercise: matmul
// expect: compile
// message: solutions/matmul.cu
// Probes for the solution with __has_include and includes it where found,
// falling back on a naive kernel elsewhere.
#if __has_include("../../solutions/matmul.cu")
#define matmul_launch theirs
#include "../../solutions/matmul.cu"
#undef matmul_launch
void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n) { theirs(a, b, c, m, k, n); }
#else
#include "cudalings/matmul.h"
__global__ void mm(const float *a, const float *b, float *c, int m, int k, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        float s = 0;
        for (int i = 0; i < k; i++)
            s += a[row * k + i] * b[i * n + col];
        c[row * n + col] = s;
    }
}
void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    mm<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(a, b, c, m, k, n);
}
#endif
