/*
 * memory_map (demo) — out = a + b for vectors of n floats, thread i on
 * element i: each warp's load starts on a 128-byte line, so its 32 floats
 * are 4 whole sectors of one line. The variants in demos/memory_map/ shift
 * every thread's element by a few floats: the same bytes, read and written
 * from addresses that start elsewhere in a sector or a line.
 * Run them side by side: cudalings run memory_map. Lesson: slides/memory_map.md
 */
#include "cudalings/memory_map.h"

__global__ void add_aligned(const float *a, const float *b, float *out, int n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (size_t)n)
        out[i] = a[i] + b[i];
}

void memory_map_launch(const float *a, const float *b, float *out, int n)
{
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    add_aligned<<<blocks, threads>>>(a, b, out, n);
}
