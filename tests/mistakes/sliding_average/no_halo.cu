// exercise: sliding_average
// expect: correctness
// diagnosis: uninitialized
// message: no thread of its block wrote
// sim-only
// The halo is never loaded: the 3 tile elements on each side are read unwritten.
#include "cudalings/sliding_average.h"

#define R 3         // the radius: the window is 2R + 1 = 7 elements
#define THREADS 256 // threads per block, one output each

__global__ void sliding_average_kernel(const float *in, float *out, int n)
{
    // tile[k] holds in[start - R + k]: the block's own THREADS elements, and R more on each side
    __shared__ float tile[THREADS + 2 * R];

    int start = blockIdx.x * THREADS;
    int i = start + threadIdx.x;

    tile[threadIdx.x + R] = i < n ? in[i] : 0.0f;
    __syncthreads();

    if (i >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < 2 * R + 1; k++)
        sum += tile[threadIdx.x + k];
    int first = i - R > 0 ? i - R : 0;
    int last = i + R < n - 1 ? i + R : n - 1;
    out[i] = sum / (last - first + 1);
}

void sliding_average_launch(const float *in, float *out, int n)
{
    int blocks = (n + THREADS - 1) / THREADS;
    sliding_average_kernel<<<blocks, THREADS>>>(in, out, n);
}
