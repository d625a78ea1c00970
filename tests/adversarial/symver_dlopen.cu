// exercise: col_sums
// expect: compile
// message: calls 'dlopen'
// Binds its own name to the C library's dlopen with a versioned symbol
// (.symver), so that no undefined symbol reads "dlopen": a name with a
// version is judged by the name before its '@'.
#include <dlfcn.h>
#include "cudalings/col_sums.h"

extern "C" void *quiet_open(const char *file, int mode);
asm(".symver quiet_open, dlopen@GLIBC_2.2.5");

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    void *lib = quiet_open("libcublas.so", RTLD_NOW);
    (void)lib;
    (void)a;
    (void)sums;
    (void)rows;
    (void)cols;
}
