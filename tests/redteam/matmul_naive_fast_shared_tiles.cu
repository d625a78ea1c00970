// exercise: matmul_naive
// expect: pass
// message: cases correct
// Legitimate and fast: a student who has read ahead tiles A and B through
// shared memory (16 x 16 tiles, zero-padded at the edges): faster than one
// thread per element reading everything from global memory.
#include "cudalings/matmul_naive.h"

#define T 16

__global__ void matmul_tiled(const float *a, const float *b, float *c, int m, int k, int n)
{
    __shared__ float as[T][T], bs[T][T + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float sum = 0.0f;
    for (int p = 0; p < k; p += T) {
        as[ty][tx] = row < m && p + tx < k ? a[(size_t)row * k + p + tx] : 0.0f;
        bs[ty][tx] = p + ty < k && col < n ? b[(size_t)(p + ty) * n + col] : 0.0f;
        __syncthreads();
        #pragma unroll
        for (int i = 0; i < T; i++)
            sum += as[ty][i] * bs[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    matmul_tiled<<<dim3((n + T - 1) / T, (m + T - 1) / T), dim3(T, T)>>>(a, b, c, m, k, n);
}
