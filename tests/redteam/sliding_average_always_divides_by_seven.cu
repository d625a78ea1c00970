// exercise: sliding_average
// expect: correctness
// message: out[0]
// An honest mistake: every window is divided by 7, also the cut-off ones at
// the two ends, where fewer elements exist.
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
    __syncthreads();
    if (i >= n)
        return;
    float s = 0.0f;
    for (int k = 0; k <= 2 * R; k++)
        s += tile[threadIdx.x + k];
    out[i] = s / (2 * R + 1);
}

void sliding_average_launch(const float *in, float *out, int n)
{
    average<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
}
