// exercise: matmul
// expect: correctness|run
// message: __syncthreads
// sim-only
// An honest mistake: no barrier after the inner product, so a fast warp
// overwrites the tiles with the next step's elements while slower warps of
// the block are still reading them. A GPU often gets away with it.
#include "cudalings/matmul.h"

#define TILE 32

__global__ void matmul_one_barrier(const float *a, const float *b, float *c, int m, int k, int n)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        as[ty][tx] = row < m && t + tx < k ? a[(size_t)row * k + t + tx] : 0.0f;
        bs[ty][tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE; i++)
            sum += as[ty][i] * bs[i][tx];
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    matmul_one_barrier<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), dim3(TILE, TILE)>>>(a, b, c, m, k, n);
}
