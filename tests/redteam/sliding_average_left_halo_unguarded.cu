// exercise: sliding_average
// expect: run|correctness
// message: before the start|out of bounds|past the|outside an array
// An honest mistake: the left halo is loaded without testing j >= 0, so
// block 0 reads in[-3], in[-2], in[-1], before the start of the input.
#include "cudalings/sliding_average.h"

#define R 3
#define THREADS 256

__global__ void average(const float *in, float *out, int n)
{
    __shared__ float tile[THREADS + 2 * R];
    int start = blockIdx.x * THREADS, i = start + threadIdx.x;
    tile[threadIdx.x + R] = i < n ? in[i] : 0.0f;
    if (threadIdx.x < R)
        tile[threadIdx.x] = in[start - R + threadIdx.x];
    else if (threadIdx.x < 2 * R) {
        int j = start + THREADS + threadIdx.x - R;
        tile[THREADS + threadIdx.x] = j < n ? in[j] : 0.0f;
    }
    __syncthreads();
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
