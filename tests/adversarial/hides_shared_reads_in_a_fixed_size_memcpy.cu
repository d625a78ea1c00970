// exercise: transpose
// expect: performance
// message: bank conflicts
// sim-only
// The unpadded tile's conflicting column reads as a memcpy of 17 bytes (nvcc takes memcpy in a kernel;
// no #ifdef needed): g++ expands a copy whose size it knows into plain moves after its instrumentation
// has run, so the simulator saw no shared load and the bank-conflict budget passed. The file is
// compiled so that such a copy stays a call (-fno-builtin-memcpy; cudasim.h makes __builtin_memcpy
// and its kind that call too), which the checks see: the 32-way conflict fails the budget.
#include <string.h>
#include "cudalings/transpose.h"

__global__ void transpose_conflicts(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[33][32];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    if (x < rows && y < cols) {
        float v[5];
        memcpy(v, &tile[threadIdx.x][threadIdx.y], 17);
        out[(size_t)y * rows + x] = v[0];
    }
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    transpose_conflicts<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 32)>>>(in, out, rows, cols);
}
