// expect: correctness
// Right sums, wrong count: at the two ends of the vector the window holds
// fewer than 7 elements, but the sum is still divided by 7.
#include "cudalings/sliding_average.h"

__global__ void sliding_average_by_seven(const float *in, float *out, int n)
{
    __shared__ float tile[256 + 6];
    int start = blockIdx.x * 256, i = start + threadIdx.x;
    tile[threadIdx.x + 3] = i < n ? in[i] : 0.0f;
    if (threadIdx.x < 6) {
        int j = threadIdx.x < 3 ? start - 3 + threadIdx.x : start + 256 + threadIdx.x - 3;
        tile[threadIdx.x < 3 ? threadIdx.x : 256 + threadIdx.x] = j >= 0 && j < n ? in[j] : 0.0f;
    }
    __syncthreads();
    if (i >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < 7; k++)
        sum += tile[threadIdx.x + k];
    out[i] = sum / 7;
}

void sliding_average_launch(const float *in, float *out, int n)
{
    sliding_average_by_seven<<<(n + 255) / 256, 256>>>(in, out, n);
}
