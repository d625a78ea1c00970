// exercise: matmul_naive
// expect: run
// message: an illegal memory address
// A kernel calls a host function through a pointer hidden in a struct: the
// host function computes the whole product. nvcc cannot see it; on a GPU
// the call jumps to an address that holds no device code.
#include "cudalings/matmul_naive.h"

struct job {
    void (*work)(const float *, const float *, float *, int, int, int);
};

static void on_host(const float *a, const float *b, float *c, int m, int k, int n)
{
    for (int r = 0; r < m; r++)
        for (int j = 0; j < n; j++) {
            float s = 0;
            for (int i = 0; i < k; i++)
                s += a[r * k + i] * b[i * n + j];
            c[r * n + j] = s;
        }
}

__global__ void call(job j, const float *a, const float *b, float *c, int m, int k, int n)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        j.work(a, b, c, m, k, n);
}

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    job j = { on_host };
    call<<<1, 32>>>(j, a, b, c, m, k, n);
}
