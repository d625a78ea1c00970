// expect: correctness
// The float4s cover in[0 .. 4 * (n / 4) - 1]; the last n % 4 floats are
// never added.
#include "cudalings/sum_shuffles.h"

#define THREADS 256     // threads per block: 8 warps
#define MAX_BLOCKS 1056 // 8 blocks of 256 on each of an H100's 132 multiprocessors

// Lane 0 gets the sum of v over the 32 lanes of its warp.
__device__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void sum_shuffles_kernel(const float *in, float *sum, int n)
{
    __shared__ float warps[THREADS / 32];
    size_t first = (size_t)blockIdx.x * THREADS + threadIdx.x;
    size_t step = (size_t)gridDim.x * THREADS;
    float v = 0.0f;

    const float4 *in4 = (const float4 *)in; // cudaMalloc'd memory: 16-byte aligned
    size_t n4 = (size_t)n / 4;
    for (size_t i = first; i < n4; i += step) {
        float4 x = in4[i];
        v += (x.x + x.y) + (x.z + x.w);
    }
    // what the float4s leave: the last n % 4 floats (all of them while n4 is 0)

    v = warp_sum(v);
    if (threadIdx.x % 32 == 0)
        warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32)
        v = warp_sum(threadIdx.x < THREADS / 32 ? warps[threadIdx.x] : 0.0f);
    if (threadIdx.x == 0)
        atomicAdd(sum, v);
}

void sum_shuffles_launch(const float *in, float *sum, int n)
{
    cudaMemsetAsync(sum, 0, sizeof(float)); // the blocks add into it
    long long blocks = ((long long)n / 4 + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    if (blocks < 1)
        blocks = 1;
    sum_shuffles_kernel<<<(int)blocks, THREADS>>>(in, sum, n);
}
