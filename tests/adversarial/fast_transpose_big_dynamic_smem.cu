// exercise: transpose
// expect: pass
// message: cases correct
// Legitimate: a 128x128 tile (66 KiB) of dynamic shared memory, over the
// 48 KiB default, opted into with cudaFuncSetAttribute
// (cudaFuncAttributeMaxDynamicSharedMemorySize); 32x32 threads, 16 elements
// each, the tile padded by one word per row; errors checked.
#include <cuda_runtime.h>
#include <cstdio>
#include "cudalings/transpose.h"

#define T 128
#define B 32

__global__ void __launch_bounds__(B * B) big_tiles(const float *__restrict__ in, float *__restrict__ out,
                                                   int rows, int cols)
{
    extern __shared__ float tile[]; // T rows of T + 1
    int bx = blockIdx.x * T, by = blockIdx.y * T;
    for (int j = threadIdx.y; j < T; j += B)
        for (int i = threadIdx.x; i < T; i += B)
            if (bx + i < cols && by + j < rows)
                tile[j * (T + 1) + i] = in[(size_t)(by + j) * cols + bx + i];
    __syncthreads();
    for (int j = threadIdx.y; j < T; j += B)
        for (int i = threadIdx.x; i < T; i += B)
            if (by + i < rows && bx + j < cols)
                out[(size_t)(bx + j) * rows + by + i] = tile[i * (T + 1) + j];
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    int smem = T * (T + 1) * (int)sizeof(float);
    cudaError_t err = cudaFuncSetAttribute(big_tiles, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (err != cudaSuccess)
        fprintf(stderr, "transpose: %s\n", cudaGetErrorString(err));
    dim3 block(B, B), grid((cols + T - 1) / T, (rows + T - 1) / T);
    big_tiles<<<grid, block, smem>>>(in, out, rows, cols);
    err = cudaGetLastError();
    if (err != cudaSuccess)
        fprintf(stderr, "transpose: %s\n", cudaGetErrorString(err));
}
