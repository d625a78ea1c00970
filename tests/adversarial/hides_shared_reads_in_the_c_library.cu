// exercise: transpose
// expect: run
// message: called the C library's 'wmemcpy'
// sim-only
// The unpadded tile's conflicting column reads made, on the simulator alone, by the C library:
// wmemcpy of one 4-byte wchar_t copies a float exactly, and the library is not instrumented, so the
// simulator saw no shared load and the bank-conflict budget passed. The grader's link sends every C
// library function that reads or writes through the caller's pointers to the simulator (SIM_WRAPS):
// the math functions a kernel may call store as a kernel's stores, and a host function such as this
// one, which nvcc refuses in a kernel, fails the launch that calls it.
#include <wchar.h>
#include "cudalings/transpose.h"

__global__ void transpose_conflicts(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][32];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    if (x < rows && y < cols) {
        float v;
#ifdef __CUDASIM__
        wmemcpy((wchar_t *)&v, (const wchar_t *)&tile[threadIdx.x][threadIdx.y], 1);
#else
        v = tile[threadIdx.x][threadIdx.y];
#endif
        out[(size_t)y * rows + x] = v;
    }
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    transpose_conflicts<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 32)>>>(in, out, rows, cols);
}
