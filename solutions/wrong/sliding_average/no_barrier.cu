// expect: correctness
// sim-only
// No __syncthreads() between filling the tile and reading it: a thread may
// read a neighbour's slot, or the halo, before the thread that fills it has
// run. A GPU may hide it by luck of timing; the simulator runs the threads
// in two orders and sees the result change.
#include "cudalings/sliding_average.h"

__global__ void sliding_average_racy(const float *in, float *out, int n)
{
    __shared__ float tile[256 + 6];
    int start = blockIdx.x * 256, i = start + threadIdx.x;
    tile[threadIdx.x + 3] = i < n ? in[i] : 0.0f;
    if (threadIdx.x < 3)
        tile[threadIdx.x] = start - 3 + (int)threadIdx.x >= 0 ? in[start - 3 + threadIdx.x] : 0.0f;
    else if (threadIdx.x < 6)
        tile[256 + threadIdx.x] = start + 253 + (int)threadIdx.x < n ? in[start + 253 + threadIdx.x] : 0.0f;
    if (i >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < 7; k++)
        sum += tile[threadIdx.x + k];
    int first = i - 3 > 0 ? i - 3 : 0, last = i + 3 < n - 1 ? i + 3 : n - 1;
    out[i] = sum / (last - first + 1);
}

void sliding_average_launch(const float *in, float *out, int n)
{
    sliding_average_racy<<<(n + 255) / 256, 256>>>(in, out, n);
}
