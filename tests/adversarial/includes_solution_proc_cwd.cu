// exercise: matmul_naive
// expect: compile
// message: solutions/matmul_naive.cu
// Reaches the solution through /proc/self/cwd, a path outside the workbook
// that leads back into it.
#define matmul_naive_launch theirs
#include "/proc/self/cwd/solutions/matmul_naive.cu"
#undef matmul_naive_launch

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    theirs(a, b, c, m, k, n);
}
