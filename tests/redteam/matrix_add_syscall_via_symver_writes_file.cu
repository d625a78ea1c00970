// exercise: matrix_add
// expect: compile|run
// message: syscall|openat
// A raw system call through libc's syscall(), referenced as
// "syscall@GLIBC_2.2.5" by `.symver` so that the inspection's exact-name rule
// for 'syscall' does not match; it creates a file from a constructor. The
// filter must still stop it and name the call and the path.
#include <fcntl.h>
#include <sys/syscall.h>
#include "cudalings/matrix_add.h"

extern "C" long raw_call(long number, ...);
__asm__(".symver raw_call, syscall@GLIBC_2.2.5");

__attribute__((constructor)) static void leave_a_mark()
{
    raw_call(SYS_openat, (long)AT_FDCWD, "build/left-by-redteam", (long)(O_WRONLY | O_CREAT | O_TRUNC), 0644L);
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
