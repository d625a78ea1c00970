/*
 * matmul — C = A · B through square tiles in shared memory.
 *
 * A is m × k, B is k × n, C is m × n, all row-major. Any sizes ≥ 1 must
 * work, including ones that are not multiples of the tile. Lesson: slides/matmul.md
 */
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
        // TODO: each thread loads one element of each tile (0 where the tile hangs over the edge of A or B), then the block waits until both tiles are complete
        for (int i = 0; i < TILE; i++)
            sum += a_tile[ty][i] * b_tile[i][tx];
        // TODO: before the next iteration overwrites the tiles, every thread must be done reading them
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
