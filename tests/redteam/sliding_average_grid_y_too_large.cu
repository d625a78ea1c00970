// exercise: sliding_average
// expect: run
// message: configuration|65535
// An honest mistake that shows only at the timed size: the blocks are laid
// out along y (gridDim.y = n / 256), and a grid's y extent is at most 65535.
// 2^26 elements need 262144 blocks: a GPU refuses the launch ("invalid
// configuration argument"). Every correctness case is small enough to pass.
#include "cudalings/sliding_average.h"

#define R 3
#define THREADS 256

__global__ void average(const float *in, float *out, int n)
{
    __shared__ float tile[THREADS + 2 * R];
    int start = blockIdx.y * THREADS, i = start + threadIdx.x;
    tile[threadIdx.x + R] = i < n ? in[i] : 0.0f;
    if (threadIdx.x < R) {
        int j = start - R + threadIdx.x;
        tile[threadIdx.x] = j >= 0 ? in[j] : 0.0f;
    } else if (threadIdx.x < 2 * R) {
        int j = start + THREADS + threadIdx.x - R;
        tile[THREADS + threadIdx.x] = j < n ? in[j] : 0.0f;
    }
    __syncthreads();
    if (i >= n)
        return;
    float s = 0.0f;
    for (int k = 0; k <= 2 * R; k++)
        s += tile[threadIdx.x + k];
    int first = i - R > 0 ? i - R : 0, last = i + R < n - 1 ? i + R : n - 1;
    out[i] = s / (last - first + 1);
}

void sliding_average_launch(const float *in, float *out, int n)
{
    average<<<dim3(1, (n + THREADS - 1) / THREADS), THREADS>>>(in, out, n);
}
