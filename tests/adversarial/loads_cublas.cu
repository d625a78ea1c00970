// exercise: matmul
// expect: compile
// message: calls 'dlopen'
#include <dlfcn.h>
#include "cudalings/matmul.h"
void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    void *lib = dlopen("libcublas.so", RTLD_NOW);
    (void)lib;
}
