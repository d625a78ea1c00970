// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate: the lesson's two launches with Hopper's programmatic dependent launch: the first kernel's
// blocks call cudaTriggerProgrammaticLaunchCompletion() once their partial sum is stored, the second is
// launched by cudaLaunchKernelEx with cudaLaunchAttributeProgrammaticStreamSerialization and waits with
// cudaGridDependencySynchronize() before it reads them. The simulator had neither device call: it could
// not compile the file (exit 3). Checked on the simulator only (no GPU this session).
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"

#define THREADS 256
#define MAX_BLOCKS 1024

__device__ float block_sums[MAX_BLOCKS];

__device__ __forceinline__ float block_sum(float v)
{
    __shared__ float warps[THREADS / 32];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x % 32 == 0)
        warps[threadIdx.x / 32] = v;
    __syncthreads();
    v = threadIdx.x < THREADS / 32 ? warps[threadIdx.x] : 0.0f;
    if (threadIdx.x < 32)
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

__global__ void partial_sums(const float *in, float *out, int n)
{
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x; i < (size_t)n; i += (size_t)gridDim.x * THREADS)
        v += in[i];
    v = block_sum(v);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
    // the dependent launch may start its prologue now (Hopper's programmatic dependent launch)
    cudaTriggerProgrammaticLaunchCompletion();
}

__global__ void final_sum(const float *partials, float *sum, int blocks)
{
    cudaGridDependencySynchronize(); // wait for partial_sums' results
    float v = 0.0f;
    for (int b = threadIdx.x; b < blocks; b += THREADS)
        v += partials[b];
    v = block_sum(v);
    if (threadIdx.x == 0)
        *sum = v;
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    float *partials;
    cudaGetSymbolAddress((void **)&partials, block_sums);
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    partial_sums<<<blocks, THREADS>>>(in, partials, n);

    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(1);
    config.blockDim = dim3(THREADS);
    config.dynamicSmemBytes = 0;
    config.stream = 0;
    config.attrs = attr;
    config.numAttrs = 1;
    cudaLaunchKernelEx(&config, final_sum, (const float *)partials, sum, blocks);
}
