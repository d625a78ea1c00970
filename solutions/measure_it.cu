/*
 * measure_it (demo) — out = a + b for vectors of n floats, one thread per
 * element: a kernel short enough (1 Mi elements, 12 MiB, a few µs on a
 * recent GPU) that every mistake in timing it shows. On a GPU, `cudalings
 * run measure_it` times it the right way and each classic wrong way, side
 * by side. Lesson: slides/measure_it.md
 */
#include "cudalings/measure_it.h"

__global__ void add(const float *a, const float *b, float *out, int n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (size_t)n)
        out[i] = a[i] + b[i];
}

void measure_it_launch(const float *a, const float *b, float *out, int n)
{
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    add<<<blocks, threads>>>(a, b, out, n);
}
