/*
 * sliding_average — the mean of a window of 2R + 1 elements around every
 * element, read through a tile in shared memory with a halo of R on each side.
 *
 * out[i] = the mean of in[j] for i - R ≤ j ≤ i + R and 0 ≤ j < n: near the
 * ends the window is cut off, and the mean is over the elements that exist
 * (out[0] is the mean of in[0..R], R + 1 elements). Any n ≥ 1 must work.
 * Budget: coalesced loads and stores; aim for 2 global reads per thread. Lesson: slides/sliding_average.md
 */
#include "cudalings/sliding_average.h"

#define R 3         // the radius: the window is 2R + 1 = 7 elements
#define THREADS 256 // threads per block, one output each

__global__ void sliding_average_kernel(const float *in, float *out, int n)
{
    // tile[k] holds in[start - R + k]: the block's own THREADS elements, and R more on each side
    __shared__ float tile[THREADS + 2 * R];

    int start = blockIdx.x * THREADS;
    int i = start + threadIdx.x;

    // BEGIN SOLUTION: every thread copies its own element to tile[threadIdx.x + R]; the first 2R threads also copy one element of the halo (R on the left, R on the right). Put 0 where the index is outside 0..n-1, and let no thread return early: all must reach the barrier
    tile[threadIdx.x + R] = i < n ? in[i] : 0.0f;
    if (threadIdx.x < R) {
        int j = start - R + threadIdx.x;
        tile[threadIdx.x] = j >= 0 ? in[j] : 0.0f;
    } else if (threadIdx.x < 2 * R) {
        int j = start + THREADS + threadIdx.x - R;
        tile[THREADS + threadIdx.x] = j < n ? in[j] : 0.0f;
    }
    // END SOLUTION
    // BEGIN SOLUTION: wait until the whole tile, halo included, is in shared memory
    __syncthreads();
    // END SOLUTION

    if (i >= n)
        return;
    // BEGIN SOLUTION: add the 2R + 1 tile elements centred on this thread's own (tile[threadIdx.x + R]) and divide by how many of in[i-R..i+R] exist
    float sum = 0.0f;
    for (int k = 0; k < 2 * R + 1; k++)
        sum += tile[threadIdx.x + k];
    int first = i - R > 0 ? i - R : 0;
    int last = i + R < n - 1 ? i + R : n - 1;
    out[i] = sum / (last - first + 1);
    // STARTER
    // out[i] = tile[threadIdx.x + R];
    // END SOLUTION
}

void sliding_average_launch(const float *in, float *out, int n)
{
    int blocks = (n + THREADS - 1) / THREADS;
    sliding_average_kernel<<<blocks, THREADS>>>(in, out, n);
}
