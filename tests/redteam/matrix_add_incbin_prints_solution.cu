// exercise: matrix_add
// expect: compile
// message: solutions/matrix_add.cu
// Reads the reference solution at compile time, through the assembler's
// .incbin (no #include, so no preprocessor's list of dependencies names it),
// and prints it from a constructor: the student reads the solution in the
// program's output. The kernel itself is right. The include check must cover
// what the assembler reads too, or the grader must refuse .incbin.
#include <cstdio>
#include "cudalings/matrix_add.h"

__asm__(".section .rodata\n"
        ".global leaked_solution\n"
        "leaked_solution:\n"
        ".incbin \"solutions/matrix_add.cu\"\n"
        ".byte 0\n"
        ".previous\n");
extern "C" const char leaked_solution[];

__attribute__((constructor)) static void show()
{
    fputs(leaked_solution, stdout);
}

__global__ void add(const float *a, const float *b, float *out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols)
        out[(size_t)row * cols + col] = a[(size_t)row * cols + col] + b[(size_t)row * cols + col];
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    add<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(a, b, out, rows, cols);
}
