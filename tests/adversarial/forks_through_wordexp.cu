// exercise: matrix_add
// expect: run
// message: a system call a submission may not make
// Starts a shell through wordexp()'s command substitution, a C library
// function that forks and that no symbol check names: the runner's filter
// refuses the new process (glibc blocks signals around it, so the refusal
// ends the run before the runner can name the call).
#include <wordexp.h>
#include "cudalings/matrix_add.h"

__global__ void add(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    wordexp_t w;
    if (wordexp("$(true)", &w, 0) == 0)
        wordfree(&w);
    int n = rows * cols;
    add<<<(n + 255) / 256, 256>>>(a, b, out, n);
}
