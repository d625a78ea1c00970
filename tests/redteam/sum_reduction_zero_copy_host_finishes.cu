// exercise: sum_reduction
// expect: compile|run
// message: dlsym|cudaHostAlloc|host
// Pinned, mapped host memory reached without naming it: cudaHostAlloc is
// refused by name, so it is looked up with dlsym, itself referenced as
// "dlsym@GLIBC_2.34" (`.symver`). The kernel writes each block's partial sum
// straight into host memory, the launcher waits and adds the partial sums on
// the host, and a one-thread kernel stores the total: the last pass of the
// reduction is the host's.
#include <dlfcn.h>
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"

extern "C" void *lookup(void *handle, const char *name);
__asm__(".symver lookup, dlsym@GLIBC_2.34");

typedef cudaError_t host_alloc_t(void **, size_t, unsigned);
typedef cudaError_t device_pointer_t(void **, void *, unsigned);

#define BLOCKS 1024

__global__ void partial(const float *in, float *host_partials, int n)
{
    __shared__ float part[256];
    float v = 0.0f;
    for (size_t i = (size_t)blockIdx.x * 256 + threadIdx.x; i < (size_t)n; i += (size_t)gridDim.x * 256)
        v += in[i];
    part[threadIdx.x] = v;
    __syncthreads();
    for (int s = 128; s; s >>= 1) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        host_partials[blockIdx.x] = part[0];
}

__global__ void store(float *sum, float value) { *sum = value; }

static float *host_partials, *device_view;

void sum_reduction_launch(const float *in, float *sum, int n)
{
    if (!host_partials) {
        host_alloc_t *host_alloc = (host_alloc_t *)lookup(RTLD_DEFAULT, "cudaHostAlloc");
        device_pointer_t *device_pointer = (device_pointer_t *)lookup(RTLD_DEFAULT, "cudaHostGetDevicePointer");
        if (!host_alloc || host_alloc((void **)&host_partials, BLOCKS * sizeof(float), cudaHostAllocMapped))
            return;
        if (!device_pointer || device_pointer((void **)&device_view, host_partials, 0))
            device_view = host_partials;
    }
    int blocks = (n + 255) / 256;
    if (blocks > BLOCKS)
        blocks = BLOCKS;
    partial<<<blocks, 256>>>(in, device_view, n);
    cudaDeviceSynchronize();
    double total = 0;
    for (int b = 0; b < blocks; b++)
        total += host_partials[b];
    store<<<1, 1>>>(sum, (float)total);
}
