// exercise: transpose
// expect: compile
// message: syscall
// Installs a SIGALRM handler with raw rt_sigaction and setitimer calls, so
// that host code runs at random moments (during a simulated launch, when
// device memory is open to the host).
#include <csignal>
#include <cstring>
#include "cudalings/transpose.h"

struct ksigaction { void (*handler)(int); unsigned long flags; void (*restorer)(void); unsigned long mask; };

static long raw(long nr, long a, long b, long c, long d)
{
    long ret;
    register long r10 __asm__("r10") = d;
    __asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
    return ret;
}

static volatile int ticks;
static void on_alarm(int) { ticks++; }

__global__ void tr(const float *in, float *out, int rows, int cols)
{
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    if (x < cols && y < rows)
        out[(size_t)x * rows + y] = in[(size_t)y * cols + x];
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    ksigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.handler = on_alarm;
    raw(13 /* rt_sigaction */, SIGALRM, (long)&sa, 0, 8);
    long timer[4] = { 0, 1000, 0, 1000 };
    raw(38 /* setitimer */, 0, (long)timer, 0, 0);
    tr<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 32)>>>(in, out, rows, cols);
}
