// exercise: transpose
// expect: pass
// message: cases correct
// Legitimate: tile size and rows per thread as template parameters, the
// padded tile in dynamic shared memory sized at launch, a launcher that
// checks every call and synchronizes before it returns (as a cautious
// student does: it costs the launch's tail, nothing more).
#include <cstdio>
#include <cuda_runtime.h>
#include "cudalings/transpose.h"

template <int TILE, int ROWS>
__global__ void transpose_t(const float *in, float *out, int rows, int cols)
{
    extern __shared__ float smem[];
    float (*tile)[TILE + 1] = reinterpret_cast<float (*)[TILE + 1]>(smem);
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    #pragma unroll
    for (int k = 0; k < TILE; k += ROWS)
        if (x < cols && y + k < rows)
            tile[threadIdx.y + k][threadIdx.x] = in[(size_t)(y + k) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    #pragma unroll
    for (int k = 0; k < TILE; k += ROWS)
        if (x < rows && y + k < cols)
            out[(size_t)(y + k) * rows + x] = tile[threadIdx.x][threadIdx.y + k];
}

static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess)
        fprintf(stderr, "transpose: %s: %s\n", what, cudaGetErrorString(e));
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    constexpr int TILE = 32, ROWS = 8;
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_t<TILE, ROWS><<<grid, dim3(TILE, ROWS), TILE * (TILE + 1) * sizeof(float)>>>(in, out, rows, cols);
    check(cudaGetLastError(), "launch");
    check(cudaDeviceSynchronize(), "kernel");
}
