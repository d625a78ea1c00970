// exercise: sliding_average
// expect: pass
// message: cases correct
// Legitimate: the radius and block size as template parameters, the tile in
// dynamic shared memory sized at launch, the window's divisor from a table
// in constant memory set by a static initializer, multiplied instead of
// divided.
#include "cudalings/sliding_average.h"

__constant__ float reciprocal[8] = { 0.0f, 1.0f, 1.0f / 2, 1.0f / 3, 1.0f / 4, 1.0f / 5, 1.0f / 6, 1.0f / 7 };

template <int RADIUS, int THREADS>
__global__ void average_t(const float *__restrict__ in, float *__restrict__ out, int n)
{
    extern __shared__ float tile[];
    int start = blockIdx.x * THREADS, i = start + threadIdx.x;
    tile[threadIdx.x + RADIUS] = i < n ? in[i] : 0.0f;
    if (threadIdx.x < RADIUS) {
        int l = start - RADIUS + threadIdx.x, r = start + THREADS + threadIdx.x;
        tile[threadIdx.x] = l >= 0 ? in[l] : 0.0f;
        tile[THREADS + RADIUS + threadIdx.x] = r < n ? in[r] : 0.0f;
    }
    __syncthreads();
    if (i >= n)
        return;
    float s = 0.0f;
    #pragma unroll
    for (int k = 0; k <= 2 * RADIUS; k++)
        s += tile[threadIdx.x + k];
    int first = i - RADIUS > 0 ? i - RADIUS : 0, last = i + RADIUS < n - 1 ? i + RADIUS : n - 1;
    out[i] = s * reciprocal[last - first + 1];
}

void sliding_average_launch(const float *in, float *out, int n)
{
    constexpr int RADIUS = 3, THREADS = 256;
    size_t smem = (THREADS + 2 * RADIUS) * sizeof(float);
    average_t<RADIUS, THREADS><<<(n + THREADS - 1) / THREADS, THREADS, smem>>>(in, out, n);
}
