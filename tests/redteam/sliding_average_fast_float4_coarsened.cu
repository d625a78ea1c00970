// exercise: sliding_average
// expect: pass
// message: cases correct
// Legitimate and fast: each block of 256 threads averages 1024 elements,
// loaded into shared memory with float4 loads (one per thread, where the
// input allows), the halo by six threads; each thread then computes the
// outputs t, t + 256, t + 512, t + 768 of its block, so shared reads stay
// conflict-free and stores coalesced.
#include <cstdint>
#include "cudalings/sliding_average.h"

#define R 3
#define THREADS 256
#define PER 4
#define SPAN (THREADS * PER)
#define PAD 4 // the block's first element sits at tile[PAD], 16-byte aligned

__global__ void __launch_bounds__(THREADS) average_vec(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ __align__(16) float tile[PAD + SPAN + PAD];
    long long start = (long long)blockIdx.x * SPAN;
    long long j = start + PER * threadIdx.x;
    bool vector = ((uintptr_t)in & 15) == 0 && j + PER <= n;
    if (vector) {
        *reinterpret_cast<float4 *>(&tile[PAD + PER * threadIdx.x]) = *reinterpret_cast<const float4 *>(in + j);
    } else {
        for (int k = 0; k < PER; k++)
            tile[PAD + PER * threadIdx.x + k] = j + k < n ? in[j + k] : 0.0f;
    }
    if (threadIdx.x < R) {
        long long l = start - R + threadIdx.x;
        tile[PAD - R + threadIdx.x] = l >= 0 && l < n ? in[l] : 0.0f;
    } else if (threadIdx.x < 2 * R) {
        long long r = start + SPAN + threadIdx.x - R;
        tile[PAD + SPAN + threadIdx.x - R] = r < n ? in[r] : 0.0f;
    }
    __syncthreads();
    #pragma unroll
    for (int p = 0; p < PER; p++) {
        int local = p * THREADS + threadIdx.x;
        long long i = start + local;
        if (i >= n)
            break;
        float sum = 0.0f;
        #pragma unroll
        for (int d = -R; d <= R; d++)
            sum += tile[PAD + local + d];
        long long first = i - R > 0 ? i - R : 0, last = i + R < n - 1 ? i + R : n - 1;
        out[i] = sum / (float)(last - first + 1);
    }
}

void sliding_average_launch(const float *in, float *out, int n)
{
    average_vec<<<(n + SPAN - 1) / SPAN, THREADS>>>(in, out, n);
}
