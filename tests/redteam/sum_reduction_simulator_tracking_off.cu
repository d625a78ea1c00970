// exercise: sum_reduction
// expect: compile|correctness|run
// message: cudasim_tracking|block
// sim-only
// (redteam review: the simulator's variables are read-only to kernel code, so
// the store fails the launch at run as a write to host memory that names
// 'cudasim_tracking'; and a plain `+=` from two blocks is now diagnosed by the
// instrumentation itself, which the flag does not turn off.)
// The race above (blocks adding into *sum with a plain `+=`), hidden from the
// simulator by its own internals: under #ifdef __CUDASIM__ (which nvcc's
// front end never sees) the kernel clears cudasim_tracking, a flag the
// simulator's instrumentation reads and its rewriter's code must be able to
// name, so the runs in two orders are not compared. The simulator's
// internals must be as far out of reach as its control functions.
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"

__global__ void reduce(const float *in, float *sum, int n)
{
#ifdef __CUDASIM__
    cudasim_tracking = 0;
#endif
    __shared__ float part[256];
    float v = 0.0f;
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256)
        v += in[i];
    part[threadIdx.x] = v;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *sum += part[0];
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    cudaMemset(sum, 0, sizeof(float));
    int blocks = (n + 255) / 256;
    reduce<<<blocks < 1024 ? blocks : 1024, 256>>>(in, sum, n);
}
