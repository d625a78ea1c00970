// exercise: sliding_average
// expect: pass
// message: cases correct
// Legitimate: blocks of 1024 x 1 threads and a 2D grid of them for 1D data
// (256 blocks across, as many rows as needed); blocks past the end return
// before touching the tile, which is safe since the whole block returns.
#include "cudalings/sliding_average.h"

#define R 3
#define T 1024

__global__ void average_2d(const float *in, float *out, int n)
{
    __shared__ float tile[T + 2 * R];
    long long block = (long long)blockIdx.y * gridDim.x + blockIdx.x;
    long long start = block * T;
    if (start >= n)
        return; // the whole block: nobody waits at the barrier
    long long i = start + threadIdx.x;
    tile[threadIdx.x + R] = i < n ? in[i] : 0.0f;
    if (threadIdx.x < R)
        tile[threadIdx.x] = start - R + threadIdx.x >= 0 ? in[start - R + threadIdx.x] : 0.0f;
    if (threadIdx.x >= T - R)
        tile[threadIdx.x + 2 * R] = i + R < n ? in[i + R] : 0.0f;
    __syncthreads();
    if (i < n) {
        float s = tile[threadIdx.x] + tile[threadIdx.x + 1] + tile[threadIdx.x + 2] + tile[threadIdx.x + 3] +
                  tile[threadIdx.x + 4] + tile[threadIdx.x + 5] + tile[threadIdx.x + 6];
        long long first = i - R > 0 ? i - R : 0, last = i + R < n - 1 ? i + R : n - 1;
        out[i] = s / (float)(last - first + 1);
    }
}

void sliding_average_launch(const float *in, float *out, int n)
{
    long long blocks = ((long long)n + T - 1) / T;
    unsigned gx = blocks < 256 ? (unsigned)blocks : 256;
    unsigned gy = (unsigned)((blocks + gx - 1) / gx);
    average_2d<<<dim3(gx, gy), T>>>(in, out, n);
}
