// exercise: sliding_average
// expect: correctness
// diagnosis: uninitialized
// message: reads shared memory that no thread of its block wrote
// sim-only: a GPU leaves the stale tile slots as they were, and synccheck says nothing
// Threads past the end return before the barrier. That alone is allowed (a
// GPU releases a barrier that only exited threads hold up, as the simulator
// does), but the tile slots right of the last element were theirs to fill
// with 0: the last windows read slots nobody stored to.
#include "cudalings/sliding_average.h"

#define R 3         // the radius: the window is 2R + 1 = 7 elements
#define THREADS 256 // threads per block, one output each

__global__ void sliding_average_kernel(const float *in, float *out, int n)
{
    // tile[k] holds in[start - R + k]: the block's own THREADS elements, and R more on each side
    __shared__ float tile[THREADS + 2 * R];

    int start = blockIdx.x * THREADS;
    int i = start + threadIdx.x;

    if (i >= n)
        return;
    tile[threadIdx.x + R] = in[i];
    if (threadIdx.x < R) {
        int j = start - R + threadIdx.x;
        tile[threadIdx.x] = j >= 0 ? in[j] : 0.0f;
    } else if (threadIdx.x < 2 * R) {
        int j = start + THREADS + threadIdx.x - R;
        tile[THREADS + threadIdx.x] = j < n ? in[j] : 0.0f;
    }
    __syncthreads();

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
