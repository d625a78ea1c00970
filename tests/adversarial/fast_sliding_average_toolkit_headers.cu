// exercise: sliding_average
// expect: pass
// message: cases correct
// Legitimate and fast: the tiled window of the lesson, with the toolkit's smaller headers named as older
// code and samples name them (vector_types.h, vector_functions.h, math_constants.h for CUDART_ZERO_F, and
// cuda_fp16.h, named and not used, as templates do),
// `using namespace std` with min and max in device code, the tile as a file-scope extern __shared__ array,
// errors printed through std::cerr. The simulator had no such headers: g++ found a toolkit's in
// /usr/local/include, whose vector types clash with cudasim.h's (the simulator cannot compile this file,
// exit 3), and a machine without a toolkit failed the compile. Checked on the simulator only (no GPU this
// session).
#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector_types.h>
#include <vector_functions.h>
#include <math_constants.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include "cudalings/sliding_average.h"
using namespace std;

#define R 3
#define THREADS 256

extern __shared__ float tile[];

__global__ void avg(const float *in, float *out, int n)
{
    int start = blockIdx.x * THREADS, i = start + threadIdx.x;
    tile[threadIdx.x + R] = i < n ? in[i] : CUDART_ZERO_F;
    if (threadIdx.x < R) {
        int l = start - R + threadIdx.x, r = start + THREADS + threadIdx.x;
        tile[threadIdx.x] = l >= 0 ? in[l] : CUDART_ZERO_F;
        tile[THREADS + R + threadIdx.x] = r < n ? in[r] : CUDART_ZERO_F;
    }
    __syncthreads();
    if (i < n) {
        float s = 0;
        for (int d = -R; d <= R; d++)
            s += tile[threadIdx.x + R + d];
        int count = min(i + R, n - 1) - max(i - R, 0) + 1;
        out[i] = s / count;
    }
}

void sliding_average_launch(const float *in, float *out, int n)
{
    int blocks = max(1, (n + THREADS - 1) / THREADS);
    avg<<<blocks, THREADS, (THREADS + 2 * R) * sizeof(float)>>>(in, out, n);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        cerr << "launch: " << cudaGetErrorString(e) << endl;
}
