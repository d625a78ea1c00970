// exercise: sliding_average
// expect: run
// diagnosis: out_of_bounds
// message: past its end
// sim-only: memcheck checks shared memory against the block's allocation, rounded up; not run on a GPU yet
// The tile has room for the left halo only: the threads that load the right
// halo write past the end of the __shared__ array (nothing faults on a GPU).
#include "cudalings/sliding_average.h"

#define R 3         // the radius: the window is 2R + 1 = 7 elements
#define THREADS 256 // threads per block, one output each

__global__ void sliding_average_kernel(const float *in, float *out, int n)
{
    // tile[k] holds in[start - R + k]: the block's own THREADS elements, and R more on each side
    __shared__ float tile[THREADS + R];

    int start = blockIdx.x * THREADS;
    int i = start + threadIdx.x;

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
    float sum = 0.0f;
    for (int k = 0; k < 2 * R + 1; k++)
        sum += tile[threadIdx.x + k];
    int first = i - R > 0 ? i - R : 0;
    int last = i + R < n - 1 ? i + R : n - 1;
    out[i] = sum / (last - first + 1);
}

void sliding_average_launch(const float *in, float *out, int n)
{
    int blocks = (n + THREADS - 1) / THREADS;
    sliding_average_kernel<<<blocks, THREADS>>>(in, out, n);
}
