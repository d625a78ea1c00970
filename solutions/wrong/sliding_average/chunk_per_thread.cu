// expect: performance
// Correct, but written as on a CPU: each thread slides a running sum along
// its own run of 64 consecutive outputs. The 32 threads of a warp then work
// 64 floats (256 bytes) apart, so every load and store of a warp touches 32
// different sectors.
#include "cudalings/sliding_average.h"

#define RUN 64

__global__ void sliding_average_runs(const float *in, float *out, int n)
{
    long first = ((long)blockIdx.x * blockDim.x + threadIdx.x) * RUN;
    if (first >= n)
        return;
    long end = first + RUN < n ? first + RUN : n;
    // the window of `first`, then slide it: add the element entering, drop the one leaving
    float sum = 0.0f;
    for (long j = first - 3; j <= first + 3; j++)
        if (j >= 0 && j < n)
            sum += in[j];
    for (long i = first; i < end; i++) {
        long lo = i - 3 > 0 ? i - 3 : 0, hi = i + 3 < n - 1 ? i + 3 : n - 1;
        out[i] = sum / (float)(hi - lo + 1);
        if (i + 4 < n)
            sum += in[i + 4];
        if (i - 3 >= 0)
            sum -= in[i - 3];
    }
}

void sliding_average_launch(const float *in, float *out, int n)
{
    long threads = ((long)n + RUN - 1) / RUN;
    sliding_average_runs<<<(int)((threads + 255) / 256), 256>>>(in, out, n);
}
