// exercise: col_sums
// expect: pass
// message: cases correct
// Legitimate, if unusual: a non-static host helper named check_cuda (a name
// like the harness's), memset and memcpy in device code, and scratch from
// device-side malloc for one thread; the columns summed with four
// accumulators in registers, the rows split across blocks with atomicAdd.
#include <cstdio>
#include <cstring>
#include "cudalings/col_sums.h"

void check_cuda(cudaError_t e, const char *what)
{
    if (e != cudaSuccess)
        fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
}

__global__ void sums4(const float *a, float *sums, int rows, int cols, int rows_per_block)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols)
        return;
    int r = blockIdx.y * rows_per_block, end = min(rows, r + rows_per_block);
    float acc[4];
    memset(acc, 0, sizeof(acc));
    for (; r + 4 <= end; r += 4) {
#pragma unroll
        for (int q = 0; q < 4; q++)
            acc[q] += a[(size_t)(r + q) * cols + col];
    }
    for (; r < end; r++)
        acc[0] += a[(size_t)r * cols + col];
    float total[4];
    memcpy(total, acc, sizeof(total));
    if (col == 0 && blockIdx.y == 0) {
        // one thread of the grid takes its partial sums through the device heap
        float *scratch = (float *)malloc(4 * sizeof(float));
        if (scratch) {
            memcpy(scratch, total, 4 * sizeof(float));
            memcpy(total, scratch, 4 * sizeof(float));
            free(scratch);
        }
    }
    atomicAdd(&sums[col], (total[0] + total[1]) + (total[2] + total[3]));
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    int rows_per_block = 512;
    dim3 grid((cols + 255) / 256, (rows + rows_per_block - 1) / rows_per_block);
    check_cuda(cudaMemsetAsync(sums, 0, cols * sizeof(float)), "cudaMemsetAsync");
    sums4<<<grid, 256>>>(a, sums, rows, cols, rows_per_block);
    check_cuda(cudaGetLastError(), "col_sums");
}
