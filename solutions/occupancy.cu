/*
 * occupancy (demo) — out = 2 × in over n floats: the simplest kernel that
 * only moves memory, launched in several shapes. Here, one thread per
 * element in blocks of 256: enough blocks to fill every multiprocessor
 * many times over. The variants in demos/occupancy/ run the same loop with
 * a fixed number of blocks, each thread taking every (gridDim.x ×
 * blockDim.x)-th element, so only the number of warps at work changes.
 * Run them side by side: cudalings run occupancy. Lesson: slides/occupancy.md
 */
#include "cudalings/occupancy.h"

__global__ void scale(const float *in, float *out, int n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (size_t)n)
        out[i] = 2.0f * in[i];
}

void occupancy_launch(const float *in, float *out, int n)
{
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    scale<<<blocks, threads>>>(in, out, n);
}
