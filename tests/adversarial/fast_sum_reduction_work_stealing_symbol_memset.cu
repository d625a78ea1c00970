// exercise: sum_reduction
// expect: pass
// message: cases correct
// Legitimate and fast: persistent blocks (8 a multiprocessor, as the reference has) take chunks of 4096
// elements from a __device__ counter with atomicAdd until none is left (work stealing), the warps' sums by
// __shfl_xor_sync, one atomicAdd a block; the counter and *sum zeroed by cudaMemsetAsync, the counter
// through its address from cudaGetSymbolAddress. The simulator's cudaMemset took a __device__ variable's
// address for host memory ("not device memory from cudaMalloc"), so every case failed. Checked on the
// simulator only (no GPU this session).
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"

#define THREADS 256
#define CHUNK (THREADS * 16)

__device__ unsigned long long next_chunk;

// persistent blocks take chunks of 4096 elements from a global counter until none is left
__global__ void steal_sum(const float *__restrict__ in, float *__restrict__ sum, long long n)
{
    __shared__ unsigned long long chunk;
    __shared__ float warps[THREADS / 32];
    float v = 0.0f;
    for (;;) {
        if (threadIdx.x == 0)
            chunk = atomicAdd(&next_chunk, 1ull);
        __syncthreads();
        const long long base = (long long)chunk * CHUNK;
        __syncthreads();
        if (base >= n)
            break;
        for (long long i = base + threadIdx.x; i < base + CHUNK && i < n; i += THREADS)
            v += in[i];
    }
    for (int o = 16; o; o >>= 1)
        v += __shfl_xor_sync(0xffffffff, v, o);
    if (threadIdx.x % 32 == 0)
        warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0.0f;
        for (int w = 0; w < THREADS / 32; ++w)
            t += warps[w];
        atomicAdd(sum, t);
    }
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    void *counter = nullptr;
    cudaGetSymbolAddress(&counter, next_chunk);
    cudaMemsetAsync(counter, 0, sizeof(unsigned long long));
    cudaMemsetAsync(sum, 0, sizeof(float));
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    long long chunks = ((long long)n + CHUNK - 1) / CHUNK;
    long long blocks = 8LL * sms; // 2048 threads on each multiprocessor
    if (blocks > chunks)
        blocks = chunks;
    if (blocks < 1)
        blocks = 1;
    steal_sum<<<(int)blocks, THREADS>>>(in, sum, n);
}
