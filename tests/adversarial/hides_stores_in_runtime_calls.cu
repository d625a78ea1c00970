// exercise: tile_transpose
// expect: run
// message: called the CUDA runtime's host function 'cudaMemset'
// sim-only
// The naive transpose (reads coalesced, stores scattered: 32 sectors per request), whose stores, on
// the simulator alone, are four cudaMemset calls of one byte each, made by the kernel: the simulator's
// runtime wrote them without its checks, so its figures saw no store and the budget passed a kernel
// with no tile. nvcc refuses the runtime's host functions in a kernel; on the simulator a kernel that
// calls one ends its launch, as a call of any host function does.
#include "cudalings/tile_transpose.h"

__global__ void naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
#ifdef __CUDASIM__
        float v = in[(size_t)r * cols + c];
        unsigned char b[4];
        __builtin_memcpy(b, &v, 4);
        for (int k = 0; k < 4; k++)
            cudaMemset((char *)&out[(size_t)c * rows + r] + k, b[k], 1);
#else
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
#endif
    }
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    naive<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 32)>>>(in, out, rows, cols);
}
