// exercise: matmul
// expect: run|correctness
// message: past the end|NaN
// An honest mistake: the tiles are loaded without testing the edges of A and
// B (the lesson's sizes are multiples of 32; the cases are not), so edge
// tiles read past the ends of the matrices.
#include "cudalings/matmul.h"

#define TILE 32

__global__ void matmul_unguarded(const float *a, const float *b, float *c, int m, int k, int n)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        as[ty][tx] = a[(size_t)row * k + t + tx];
        bs[ty][tx] = b[(size_t)(t + ty) * n + col];
        __syncthreads();
        for (int i = 0; i < TILE; i++)
            sum += as[ty][i] * bs[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    matmul_unguarded<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), dim3(TILE, TILE)>>>(a, b, c, m, k, n);
}
