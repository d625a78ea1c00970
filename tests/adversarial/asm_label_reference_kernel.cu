// exercise: transpose
// expect: compile
// message: transpose_kernel
// Launches the reference's kernel through an assembler label that spells
// its mangled name.
#include "cudalings/transpose.h"

__global__ void mine(const float *in, float *out, int rows, int cols) __asm__("_Z16transpose_kernelPKfPfii");

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 32), grid((cols + 31) / 32, (rows + 31) / 32);
    mine<<<grid, block>>>(in, out, rows, cols);
}
