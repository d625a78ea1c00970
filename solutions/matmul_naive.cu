/*
 * matmul_naive — C = A · B with one thread per element of C, every operand
 * read from global memory.
 *
 * A is m × k, B is k × n, C is m × n, all row-major: A[r][i] is a[r * k + i].
 * Any sizes ≥ 1 must work. Lesson: slides/matmul_naive.md
 */
#include "cudalings/matmul_naive.h"

__global__ void matmul_naive_kernel(const float *a, const float *b, float *c, int m, int k, int n)
{
    // BEGIN SOLUTION: this thread's element of C: x picks the column (so the 16 threads of a block row read 16 neighbours of one row of B and write 16 of C; a warp is two such rows), y picks the row
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    // STARTER
    // int col = 0;
    // int row = 0;
    // END SOLUTION
    if (row >= m || col >= n)
        return;

    float sum = 0.0f;
    // BEGIN SOLUTION: the dot product of row `row` of A and column `col` of B
    for (int i = 0; i < k; i++)
        sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
    // END SOLUTION
    c[(size_t)row * n + col] = sum;
}

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    // BEGIN SOLUTION: 16 × 16 threads per block, and enough blocks across (n columns) and down (m rows) to cover C
    dim3 block(16, 16);
    dim3 grid((n + block.x - 1) / block.x, (m + block.y - 1) / block.y);
    // STARTER
    // dim3 block(1, 1);
    // dim3 grid(1, 1);
    // END SOLUTION
    matmul_naive_kernel<<<grid, block>>>(a, b, c, m, k, n);
}
