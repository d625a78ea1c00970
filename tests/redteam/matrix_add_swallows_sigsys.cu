// exercise: matrix_add
// expect: compile|run
// message: sigaction|openat
// Catches the filter's own signal: a constructor installs a SIGSYS handler
// (sigaction, referenced as "sigaction@GLIBC_2.2.5" through `.symver` so the
// exact-name rule does not match) that makes every refused system call
// return -1 instead of ending the program, then tries to create a file. The
// file is not created, but the run goes on as if nothing was refused, and the
// kernel is right: a grader must still say what was attempted.
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include "cudalings/matrix_add.h"

extern "C" int set_action(int sig, const struct sigaction *act, struct sigaction *old);
__asm__(".symver set_action, sigaction@GLIBC_2.2.5");
extern "C" long raw_call(long number, ...);
__asm__(".symver raw_call, syscall@GLIBC_2.2.5");

static void refused(int, siginfo_t *, void *context)
{
#if defined(__x86_64__)
    ((ucontext_t *)context)->uc_mcontext.gregs[REG_RAX] = -1; // the call "failed"; carry on
#endif
}

__attribute__((constructor)) static void quietly()
{
    struct sigaction sa = {};
    sa.sa_sigaction = refused;
    sa.sa_flags = SA_SIGINFO;
    set_action(SIGSYS, &sa, nullptr);
    raw_call(SYS_openat, (long)AT_FDCWD, "build/left-by-redteam-quietly", (long)(O_WRONLY | O_CREAT), 0644L);
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
