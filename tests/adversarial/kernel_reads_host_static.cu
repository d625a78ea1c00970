// exercise: tile_transpose
// expect: run
// message: an illegal memory address
// The host transposes into a static host array, reached by the kernel
// through an address passed as an integer (no pointer argument to check);
// the input reached the host the same way.
#include <cstdint>
#include "cudalings/tile_transpose.h"

static float stash[2][1 << 20];

__global__ void to_host(const float *in, uintptr_t where, size_t n)
{
    float *h = (float *)where;
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        h[i] = in[i];
}

__global__ void from_host(uintptr_t where, float *out, size_t n)
{
    const float *h = (const float *)where;
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = h[i];
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    to_host<<<(n + 255) / 256, 256>>>(in, (uintptr_t)stash[0], n);
    cudaDeviceSynchronize();
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            stash[1][(size_t)c * rows + r] = stash[0][(size_t)r * cols + c];
    from_host<<<(n + 255) / 256, 256>>>((uintptr_t)stash[1], out, n);
}
