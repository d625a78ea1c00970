// exercise: sliding_average
// expect: pass
// message: cases correct
// Legitimate: threads past the end return before the __syncthreads() the
// others reach (a GPU releases a barrier that only exited threads hold up);
// the window skips positions past n, and the halo is loaded by the block's
// first and last threads, which surely stay.
#include <cuda_runtime.h>
#include "cudalings/sliding_average.h"

#define R 3
#define THREADS 256

__global__ void avg(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float tile[THREADS + 2 * R];
    int start = blockIdx.x * THREADS, i = start + threadIdx.x;
    if (i >= n)
        return;
    tile[threadIdx.x + R] = in[i];
    // the halo, by threads that surely did not return: the first and the last of the block
    if (threadIdx.x == 0)
        for (int q = 0; q < R; q++)
            if (start - R + q >= 0)
                tile[q] = in[start - R + q];
    if (threadIdx.x == min(THREADS, n - start) - 1)
        for (int q = 0; q < R; q++)
            if (start + THREADS + q < n)
                tile[THREADS + R + q] = in[start + THREADS + q];
    __syncthreads();
    int first = max(i - R, 0), last = min(i + R, n - 1);
    float sum = 0.0f;
    for (int j = first; j <= last; j++)
        sum += tile[j - start + R];
    out[i] = sum / (last - first + 1);
}

void sliding_average_launch(const float *in, float *out, int n)
{
    avg<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
}
