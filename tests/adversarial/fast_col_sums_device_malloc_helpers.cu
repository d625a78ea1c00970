// exercise: col_sums
// expect: pass
// message: cases correct
// Legitimate, if unusual: a non-static host helper named check_cuda (a name
// like the harness's), scratch from device-side malloc (column 0's partial
// sums), memset and memcpy in device code, a local table indexed at run time.
#include <cstdio>
#include <cstring>
#include "cudalings/col_sums.h"

void check_cuda(cudaError_t e, const char *what)
{
    if (e != cudaSuccess)
        fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
}

__global__ void sums4(const float *a, float *sums, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols)
        return;
    const int order[4] = { 2, 0, 3, 1 };
    float local[4], *acc = local;
    if (col == 0 && !(acc = (float *)malloc(4 * sizeof(float))))
        acc = local;
    memset(acc, 0, 4 * sizeof(float));
    int r = 0;
    for (; r + 4 <= rows; r += 4)
        for (int q = 0; q < 4; q++)
            acc[order[q]] += a[(size_t)(r + order[q]) * cols + col];
    for (; r < rows; r++)
        acc[0] += a[(size_t)r * cols + col];
    float total[4];
    memcpy(total, acc, sizeof(total));
    if (acc != local)
        free(acc);
    sums[col] = (total[0] + total[1]) + (total[2] + total[3]);
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    sums4<<<(cols + 255) / 256, 256>>>(a, sums, rows, cols);
    check_cuda(cudaGetLastError(), "col_sums");
}
