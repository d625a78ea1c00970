// (This file begins with a UTF-8 byte-order mark, as some editors save it.)
// exercise: col_sums
// expect: pass
// message: cases correct
// Legitimate: valid CUDA syntax that a rewriter can get wrong, in a correct
// and fast kernel. Blocks of 32 columns x 8 row groups, partial sums reduced
// in shared memory: a template kernel with __launch_bounds__, << and >> in a
// __shared__ size and in the launch configuration, a launch inside a macro
// and a function template.
#include "cudalings/col_sums.h"

#define COLS_PER_BLOCK (1 << 5)
#define LAUNCH(kernel, grid, block, ...) kernel<<<grid, block>>>(__VA_ARGS__)

template <int GROUPS>
__global__ void __launch_bounds__(COLS_PER_BLOCK * GROUPS)
grouped_col_sums(const float *__restrict__ a, float *__restrict__ sums, int rows, int cols)
{
    __shared__ float part[GROUPS][1 << 5];
    int col = blockIdx.x * COLS_PER_BLOCK + threadIdx.x;

    float sum = 0.0f;
    if (col < cols)
        for (int r = threadIdx.y; r < rows; r += GROUPS)
            sum += a[(size_t)r * cols + col];
    part[threadIdx.y][threadIdx.x] = sum;
    __syncthreads();
    for (int half = GROUPS >> 1; half > 0; half >>= 1) {
        if (threadIdx.y < half)
            part[threadIdx.y][threadIdx.x] += part[threadIdx.y + half][threadIdx.x];
        __syncthreads();
    }
    if (threadIdx.y == 0 && col < cols)
        sums[col] = part[0][threadIdx.x];
}

template <int GROUPS>
static void launch_grouped(const float *a, float *sums, int rows, int cols)
{
    LAUNCH(grouped_col_sums<GROUPS>, (cols + COLS_PER_BLOCK - 1) >> 5, dim3(COLS_PER_BLOCK, GROUPS),
           a, sums, rows, cols);
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    launch_grouped<8>(a, sums, rows, cols);
}
