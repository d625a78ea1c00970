// exercise: sliding_average
// expect: pass
// message: cases correct
// Legitimate and fast: each thread computes four outputs from a tile of
// 4 x 256 elements and its halo, loaded once.
#include "cudalings/sliding_average.h"
#define R 3
#define THREADS 256
#define PER 4
__global__ void average4(const float *in, float *out, int n)
{
    __shared__ float tile[THREADS * PER + 2 * R];
    int start = blockIdx.x * THREADS * PER;
    for (int k = threadIdx.x; k < THREADS * PER + 2 * R; k += THREADS) {
        int j = start - R + k;
        tile[k] = j >= 0 && j < n ? in[j] : 0.0f;
    }
    __syncthreads();
    for (int p = 0; p < PER; p++) {
        int local = p * THREADS + threadIdx.x, i = start + local;
        if (i >= n)
            continue;
        float s = 0;
        for (int k = 0; k <= 2 * R; k++)
            s += tile[local + k];
        int lo = i - R < 0 ? 0 : i - R, hi = i + R >= n ? n - 1 : i + R;
        out[i] = s / (hi - lo + 1);
    }
}
void sliding_average_launch(const float *in, float *out, int n)
{
    average4<<<(n + THREADS * PER - 1) / (THREADS * PER), THREADS>>>(in, out, n);
}
