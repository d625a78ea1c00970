// exercise: transpose
// expect: compile
// message: #undef __builtin_memmove
// sim-only
// Gives __builtin_memmove back its own meaning, which cudasim.h makes a call the checks see, so that a
// copy of a known size would be expanded into moves no check sees (hides_shared_reads_in_a_fixed_size_
// memcpy.cu): the rewriter refuses the #undef (and a #define) of a copy's builtin.
#include "cudalings/transpose.h"
#undef __builtin_memmove

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    if (x < cols && y < rows)
        __builtin_memmove(&out[(size_t)x * rows + y], &in[(size_t)y * cols + x], sizeof(float) * 1);
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    transpose_naive<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 32)>>>(in, out, rows, cols);
}
