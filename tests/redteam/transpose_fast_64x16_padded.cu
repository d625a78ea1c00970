// exercise: transpose
// expect: pass
// message: cases correct
// Legitimate and fast: 64 x 64 tiles padded to 65 columns (16.3 KiB of
// shared memory), blocks of 64 x 16 threads moving four rows each.
#include "cudalings/transpose.h"

#define T 64
#define BY 16

__global__ void transpose64(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[T][T + 1];
    int x = blockIdx.x * T + threadIdx.x;
    int y = blockIdx.y * T + threadIdx.y;
    for (int k = 0; k < T; k += BY)
        if (x < cols && y + k < rows)
            tile[threadIdx.y + k][threadIdx.x] = in[(size_t)(y + k) * cols + x];
    __syncthreads();
    x = blockIdx.y * T + threadIdx.x;
    y = blockIdx.x * T + threadIdx.y;
    for (int k = 0; k < T; k += BY)
        if (x < rows && y + k < cols)
            out[(size_t)(y + k) * rows + x] = tile[threadIdx.x][threadIdx.y + k];
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    transpose64<<<dim3((cols + T - 1) / T, (rows + T - 1) / T), dim3(T, BY)>>>(in, out, rows, cols);
}
