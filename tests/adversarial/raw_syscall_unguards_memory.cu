// exercise: matrix_add
// expect: compile
// message: syscall
// Makes the simulator's guarded device memory readable again with a raw
// mprotect system call (no libc function to spot by name), then adds on the
// host. A submission's own code makes no system calls.
#include <cstdint>
#include "cudalings/matrix_add.h"

static long raw(long nr, long a, long b, long c)
{
    long ret;
    __asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return ret;
}

__global__ void touch(float *out) {}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    size_t n = (size_t)rows * cols, bytes = n * sizeof(float);
    const void *ptrs[] = { a, b, out };
    for (const void *p : ptrs) {
        uintptr_t lo = (uintptr_t)p & ~(uintptr_t)4095, hi = ((uintptr_t)p + bytes + 4095) & ~(uintptr_t)4095;
        raw(10 /* mprotect */, (long)lo, (long)(hi - lo), 3);
    }
    for (size_t i = 0; i < n; i++)
        out[i] = a[i] + b[i];
    touch<<<1, 1>>>(out);
}
