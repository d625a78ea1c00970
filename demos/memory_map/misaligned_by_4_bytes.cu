// variant: misaligned by one float: a warp's 32 floats start 4 bytes into a sector and straddle two lines, 5 sectors where 4 hold the data
#include "cudalings/memory_map.h"

#define SHIFT 1 // floats: thread t of the grid takes element t - SHIFT

// Every element once, by the thread SHIFT places after the one that would
// take it in solutions/memory_map.cu: the grid has one more block, and the
// first SHIFT threads have no element. cudaMalloc's 256-byte alignment puts
// element 0 on a line, so each warp now starts SHIFT floats before a line.
__global__ void add_shifted(const float *a, const float *b, float *out, int n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x - SHIFT;
    if (i >= 0 && i < n)
        out[i] = a[i] + b[i];
}

void memory_map_launch(const float *a, const float *b, float *out, int n)
{
    int threads = 256;
    int blocks = (n + SHIFT + threads - 1) / threads;
    add_shifted<<<blocks, threads>>>(a, b, out, n);
}
