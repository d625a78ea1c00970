// exercise: sliding_average
// expect: run
// message: host code touched device memory outside a kernel
// sim-only
// The host does the work through a __device__ array: nvcc only warns when
// host code reads or writes a __device__ variable (on a GPU it reaches the
// host's shadow copy). On the simulator __device__ variables get pages of
// their own (sim/student.ld) that host code may not touch outside a kernel or
// a runtime call, as cudaMalloc'd memory.
#include "cudalings/sliding_average.h"

#define CAP (1 << 21)
__device__ float stash[CAP];

__global__ void to_stash(const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        stash[i] = in[i];
}

__global__ void from_stash(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = stash[CAP - n + i];
}

void sliding_average_launch(const float *in, float *out, int n)
{
    if (n > CAP / 2)
        return;
    to_stash<<<(n + 255) / 256, 256>>>(in, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; i++) {
        int first = i - 3 > 0 ? i - 3 : 0, last = i + 3 < n - 1 ? i + 3 : n - 1;
        float s = 0.0f;
        for (int j = first; j <= last; j++)
            s += stash[j];
        stash[CAP - n + i] = s / (last - first + 1);
    }
    from_stash<<<(n + 255) / 256, 256>>>(out, n);
}
