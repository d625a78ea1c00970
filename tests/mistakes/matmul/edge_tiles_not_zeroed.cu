// exercise: matmul
// expect: correctness
// diagnosis: uninitialized
// message: no thread of its block wrote
// sim-only
// A tile that hangs over the edge of A or B is left unfilled there instead of 0.
#include "cudalings/matmul.h"

#define TILE 32

__global__ void matmul_kernel(const float *a, const float *b, float *c, int m, int k, int n)
{
    __shared__ float a_tile[TILE][TILE];
    __shared__ float b_tile[TILE][TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;

    for (int t = 0; t < k; t += TILE) {
        if (row < m && t + tx < k)
            a_tile[ty][tx] = a[(size_t)row * k + t + tx];
        if (t + ty < k && col < n)
            b_tile[ty][tx] = b[(size_t)(t + ty) * n + col];
        __syncthreads();
        for (int i = 0; i < TILE; i++)
            sum += a_tile[ty][i] * b_tile[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_kernel<<<grid, block>>>(a, b, c, m, k, n);
}
