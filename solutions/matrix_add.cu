/*
 * matrix_add — out = a + b for rows × cols matrices, over a 2D grid of 2D blocks.
 *
 * All three matrices are row-major: element (r, c) is at [r * cols + c].
 * Any rows ≥ 1 and cols ≥ 1 must work. Lesson: slides/matrix_add.md
 */
#include "cudalings/matrix_add.h"

__global__ void matrix_add_kernel(const float *a, const float *b, float *out, int rows, int cols)
{
    // BEGIN SOLUTION: find this thread's row and column; let x walk along a row so a warp reads neighbouring addresses
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    // STARTER
    // int col = 0;
    // int row = 0;
    // END SOLUTION
    if (row < rows && col < cols) {
        size_t i = (size_t)row * cols + col;
        out[i] = a[i] + b[i];
    }
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    // BEGIN SOLUTION: pick a 2D block (32 × 32 is a good start) and a 2D grid that covers every element
    dim3 block(32, 32);
    dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
    // STARTER
    // dim3 block(1, 1);
    // dim3 grid(1, 1);
    // END SOLUTION
    matrix_add_kernel<<<grid, block>>>(a, b, out, rows, cols);
}
