// expect: correctness
// The tile holds only the block's own elements: near the edge of every block
// the window loses the neighbours that belong to the next or previous block.
#include "cudalings/sliding_average.h"

__global__ void sliding_average_no_halo(const float *in, float *out, int n)
{
    __shared__ float tile[256];
    int i = blockIdx.x * 256 + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i >= n)
        return;
    int t = threadIdx.x;
    float sum = 0.0f;
    for (int k = -3; k <= 3; k++)
        if (t + k >= 0 && t + k < 256)
            sum += tile[t + k];
    int first = i - 3 > 0 ? i - 3 : 0, last = i + 3 < n - 1 ? i + 3 : n - 1;
    out[i] = sum / (last - first + 1);
}

void sliding_average_launch(const float *in, float *out, int n)
{
    sliding_average_no_halo<<<(n + 255) / 256, 256>>>(in, out, n);
}
