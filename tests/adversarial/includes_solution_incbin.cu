// exercise: matrix_add
// expect: compile
// message: includes 'solutions/matrix_add.cu'
// Reads the solution at compile time through the assembler, which no
// preprocessor's dependency list names: `.incbin` in inline assembly (spelt
// in two string pieces, so no text search finds it), printed from a
// constructor. The assembler's own dependency list (as --MD) is checked.
#include <cstdio>
#include "cudalings/matrix_add.h"

__asm__(".section .rodata\n"
        "leaked:\n"
        ".inc" "bin \"solutions/matrix_add.cu\"\n"
        ".byte 0\n"
        ".previous\n");
extern "C" const char leaked[];

__attribute__((constructor)) static void show()
{
    fputs(leaked, stdout);
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
