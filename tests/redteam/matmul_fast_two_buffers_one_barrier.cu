// exercise: matmul
// expect: pass
// message: cases correct
// Legitimate: the lesson's kernel (32 x 32 threads, one element each) with
// two pairs of tiles used in turn, so one __syncthreads() per step is enough:
// the tiles written in step t + 1 are the ones read in step t - 1.
#include "cudalings/matmul.h"

#define TILE 32

__global__ void matmul_two_buffers(const float *a, const float *b, float *c, int m, int k, int n)
{
    __shared__ float as[2][TILE][TILE];
    __shared__ float bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    int steps = (k + TILE - 1) / TILE;
    for (int s = 0; s < steps; s++) {
        int t = s * TILE, p = s & 1;
        as[p][ty][tx] = row < m && t + tx < k ? a[(size_t)row * k + t + tx] : 0.0f;
        bs[p][ty][tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;
        __syncthreads();
        #pragma unroll 16
        for (int i = 0; i < TILE; i++)
            sum += as[p][ty][i] * bs[p][i][tx];
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    matmul_two_buffers<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), dim3(TILE, TILE)>>>(a, b, c, m, k, n);
}
