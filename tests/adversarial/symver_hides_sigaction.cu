// exercise: matrix_add
// expect: compile
// message: calls 'sigaction'
// Names a refused function under a symbol version (`.symver local,
// sigaction@GLIBC_2.2.5`), so the object refers to "sigaction@GLIBC_2.2.5"
// and not to "sigaction": a handler of its own for the filter's SIGSYS would
// make every refused system call return quietly. The version is no part of
// the name the rules judge (and the filter refuses rt_sigaction of SIGSYS).
#include <signal.h>
#include "cudalings/matrix_add.h"

extern "C" int set_action(int sig, const struct sigaction *act, struct sigaction *old);
__asm__(".symver set_action, sigaction@GLIBC_2.2.5");

static void ignored(int) {}

__attribute__((constructor)) static void quietly()
{
    struct sigaction sa = {};
    sa.sa_handler = ignored;
    set_action(SIGSYS, &sa, nullptr);
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
