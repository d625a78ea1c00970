/*
 * coalescing (demo) — out = a + b for vectors of n floats, thread i on
 * element i: the 32 threads of a warp read 32 neighbouring floats, 128 bytes
 * in 4 sectors. The variants in demos/coalescing/ do the same n additions
 * with the elements handed out to the threads in another order.
 * Run them side by side: cudalings run coalescing. Lesson: slides/coalescing.md
 */
#include "cudalings/coalescing.h"

__global__ void add_contiguous(const float *a, const float *b, float *out, int n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (size_t)n)
        out[i] = a[i] + b[i];
}

void coalescing_launch(const float *a, const float *b, float *out, int n)
{
    int threads = 1024;
    int blocks = (n + threads - 1) / threads;
    add_contiguous<<<blocks, threads>>>(a, b, out, n);
}
