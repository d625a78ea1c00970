// expect: correctness
// sim-only
// Threads past the end return before the barrier. That alone is allowed (a
// GPU releases a barrier that only exited threads hold up, and so does the
// simulator), but in a last block of one or two threads the left halo was
// theirs to load: the window reads tile slots nobody stored to. A GPU reads
// whatever a block before left there, and may pass.
#include "cudalings/sliding_average.h"

__global__ void sliding_average_leaves_early(const float *in, float *out, int n)
{
    __shared__ float tile[256 + 6];
    int start = blockIdx.x * 256, i = start + threadIdx.x;
    if (i >= n)
        return;
    tile[threadIdx.x + 3] = in[i];
    if (threadIdx.x < 3)
        tile[threadIdx.x] = start - 3 + (int)threadIdx.x >= 0 ? in[start - 3 + threadIdx.x] : 0.0f;
    else if (threadIdx.x < 6)
        tile[256 + threadIdx.x] = start + 253 + (int)threadIdx.x < n ? in[start + 253 + threadIdx.x] : 0.0f;
    __syncthreads();
    float sum = 0.0f;
    for (int k = 0; k < 7; k++)
        sum += i - 3 + k >= 0 && i - 3 + k < n ? tile[threadIdx.x + k] : 0.0f;
    int first = i - 3 > 0 ? i - 3 : 0, last = i + 3 < n - 1 ? i + 3 : n - 1;
    out[i] = sum / (last - first + 1);
}

void sliding_average_launch(const float *in, float *out, int n)
{
    sliding_average_leaves_early<<<(n + 255) / 256, 256>>>(in, out, n);
}
