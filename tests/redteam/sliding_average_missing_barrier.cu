// exercise: sliding_average
// expect: correctness|run
// message: __syncthreads
// sim-only
// An honest mistake: the window is summed right after the tile is loaded,
// without a barrier, so a thread reads neighbours' elements that other warps
// may not have stored yet.
#include "cudalings/sliding_average.h"

#define R 3
#define THREADS 256

__global__ void average(const float *in, float *out, int n)
{
    __shared__ float tile[THREADS + 2 * R];
    int start = blockIdx.x * THREADS, i = start + threadIdx.x;
    tile[threadIdx.x + R] = i < n ? in[i] : 0.0f;
    if (threadIdx.x < R) {
        int j = start - R + threadIdx.x;
        tile[threadIdx.x] = j >= 0 ? in[j] : 0.0f;
    } else if (threadIdx.x < 2 * R) {
        int j = start + THREADS + threadIdx.x - R;
        tile[THREADS + threadIdx.x] = j < n ? in[j] : 0.0f;
    }
    if (i >= n)
        return;
    float s = 0.0f;
    for (int k = 0; k <= 2 * R; k++)
        s += tile[threadIdx.x + k];
    int first = i - R > 0 ? i - R : 0, last = i + R < n - 1 ? i + R : n - 1;
    out[i] = s / (last - first + 1);
}

void sliding_average_launch(const float *in, float *out, int n)
{
    average<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
}
