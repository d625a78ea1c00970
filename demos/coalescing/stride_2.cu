// variant: stride 2: even elements first, then odd ones; a warp's 32 loads span 256 bytes, 8 sectors, half of each used by this load
#include "cudalings/coalescing.h"

// Thread t < half takes element 2t, thread half + t takes element 2t + 1:
// every element once, but each warp skips every other float.
__global__ void add_even_then_odd(const float *a, const float *b, float *out, int n)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t half = ((size_t)n + 1) / 2;
    size_t i = t < half ? 2 * t : 2 * (t - half) + 1;
    if (i < (size_t)n)
        out[i] = a[i] + b[i];
}

void coalescing_launch(const float *a, const float *b, float *out, int n)
{
    int threads = 1024;
    size_t total = ((size_t)n + 1) / 2 * 2;
    add_even_then_odd<<<(int)((total + threads - 1) / threads), threads>>>(a, b, out, n);
}
