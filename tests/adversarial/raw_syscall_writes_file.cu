// exercise: col_sums
// expect: compile
// message: uses the machine instruction
// Opens a file for writing through an inline system call, past every symbol
// check, from a constructor (to leave something for the next grading): the
// instruction is found in the object's code before it is ever loaded.
#include "cudalings/col_sums.h"
__attribute__((constructor)) static void leave_a_file(void)
{
    static const char path[] = "build/left-by-a-submission";
    long ret;
#if defined(__x86_64__)
    asm volatile("syscall" : "=a"(ret) : "a"(257L), "D"(-100L), "S"(path), "d"(0101L) : "rcx", "r11", "memory");
#elif defined(__aarch64__)
    register long x8 asm("x8") = 56, x0 asm("x0") = -100, x1 asm("x1") = (long)path, x2 asm("x2") = 0101;
    asm volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
    ret = x0;
#endif
    (void)ret;
}
__global__ void sums(const float *a, float *s, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    float t = 0;
    for (int r = 0; r < rows; r++)
        t += a[(size_t)r * cols + c];
    s[c] = t;
}
void col_sums_launch(const float *a, float *s, int rows, int cols)
{
    sums<<<(cols + 255) / 256, 256>>>(a, s, rows, cols);
}
