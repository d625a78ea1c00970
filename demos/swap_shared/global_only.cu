// variant: no shared memory: each thread reads its mirror element straight from global memory, which a warp still reads as 32 neighbours
#include "cudalings/swap_shared.h"

__global__ void swap_global(const float *in, float *out, int n)
{
    size_t start = (size_t)blockIdx.x * 256;
    int len = n - start < 256 ? (int)(n - start) : 256;
    int j = threadIdx.x;
    if (j < len)
        out[start + j] = in[start + len - 1 - j];
}

void swap_shared_launch(const float *in, float *out, int n)
{
    swap_global<<<(n + 255) / 256, 256>>>(in, out, n);
}
