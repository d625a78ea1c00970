// exercise: sliding_average
// expect: pass
// message: cases correct
// Legitimate (debatable by policy): the window's reciprocals are put in
// constant memory with cudaMemcpyToSymbol from the host, once, 32 bytes of
// constants: the textbook way to fill __constant__ memory. The kernel does
// all the work. A grader that refuses every cudaMemcpy* must at least say
// why in terms that fit (nothing is copied from an input or to an output).
#include <cuda_runtime.h>
#include "cudalings/sliding_average.h"

#define R 3
#define THREADS 256

__constant__ float reciprocal[8];

__global__ void average(const float *in, float *out, int n)
{
    __shared__ float tile[THREADS + 2 * R];
    int start = blockIdx.x * THREADS, i = start + threadIdx.x;
    tile[threadIdx.x + R] = i < n ? in[i] : 0.0f;
    if (threadIdx.x < R) {
        int l = start - R + threadIdx.x, r = start + THREADS + threadIdx.x;
        tile[threadIdx.x] = l >= 0 ? in[l] : 0.0f;
        tile[THREADS + R + threadIdx.x] = r < n ? in[r] : 0.0f;
    }
    __syncthreads();
    if (i >= n)
        return;
    float s = 0.0f;
    for (int k = 0; k <= 2 * R; k++)
        s += tile[threadIdx.x + k];
    int first = max(i - R, 0), last = min(i + R, n - 1);
    out[i] = s * reciprocal[last - first + 1];
}

void sliding_average_launch(const float *in, float *out, int n)
{
    static bool ready;
    if (!ready) {
        float host[8] = { 0.0f, 1.0f, 1.0f / 2, 1.0f / 3, 1.0f / 4, 1.0f / 5, 1.0f / 6, 1.0f / 7 };
        ready = cudaMemcpyToSymbol(reciprocal, host, sizeof(host)) == cudaSuccess;
    }
    average<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
}
