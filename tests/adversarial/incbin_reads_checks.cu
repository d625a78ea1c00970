// exercise: transpose
// expect: compile
// message: includes 'harness/
// The assembler reads a file the preprocessor never sees: .incbin pastes the
// exercise's check (its reference and its tolerances) into the object, where a
// constructor could print it. The include check reads the assembler's list of
// files too.
#include <cstdio>
#include "cudalings/transpose.h"

asm(".pushsection .rodata\n"
    "check_text:\n"
    ".incbin \"harness/checks/transpose.cpp\"\n"
    ".byte 0\n"
    ".popsection\n");

__global__ void transpose_kernel(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    transpose_kernel<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(in, out, rows, cols);
}
