// exercise: sliding_average
// expect: pass
// message: cases correct
// Legitimate: persistent blocks, as many as fit on the GPU at once (the
// occupancy API times the multiprocessor count), each walking the tiles in a
// grid-stride loop: load tile and halo, barrier, average, barrier before
// the next tile overwrites it.
#include <cuda_runtime.h>
#include "cudalings/sliding_average.h"

#define R 3
#define THREADS 512

__global__ void average_persistent(const float *in, float *out, int n)
{
    __shared__ float tile[THREADS + 2 * R];
    int tiles = (n + THREADS - 1) / THREADS;
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        int start = t * THREADS, i = start + threadIdx.x;
        tile[threadIdx.x + R] = i < n ? in[i] : 0.0f;
        if (threadIdx.x < 2 * R) {
            int j = threadIdx.x < R ? start - R + threadIdx.x : start + THREADS + threadIdx.x - R;
            int at = threadIdx.x < R ? threadIdx.x : THREADS + threadIdx.x;
            tile[at] = j >= 0 && j < n ? in[j] : 0.0f;
        }
        __syncthreads();
        if (i < n) {
            float s = 0.0f;
            for (int k = 0; k <= 2 * R; k++)
                s += tile[threadIdx.x + k];
            int first = max(i - R, 0), last = min(i + R, n - 1);
            out[i] = s / (last - first + 1);
        }
        __syncthreads();
    }
}

void sliding_average_launch(const float *in, float *out, int n)
{
    static int blocks;
    if (!blocks) {
        int device, sms = 1, per_sm = 1;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, average_persistent, THREADS, 0);
        blocks = (sms > 0 ? sms : 1) * (per_sm > 0 ? per_sm : 1);
    }
    int tiles = (n + THREADS - 1) / THREADS;
    average_persistent<<<tiles < blocks ? tiles : blocks, THREADS>>>(in, out, n);
}
