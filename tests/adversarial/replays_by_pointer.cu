// exercise: sliding_average
// expect: correctness
// message: on inputs it had not seen before
// gpu-expect: performance|pass
// gpu-message: the reference|cases correct
// (On a GPU the launcher runs once per case, in the capture process, and the measuring process replays
// that call's work every round: what it remembers is never used, every round computes, and the time is
// that of the whole work.)
// Computes only when the buffers or the size change and otherwise copies
// what it computed last time: the GPU's timed rounds reuse the case's
// buffers with fresh inputs, and the simulator runs cases again in their
// buffers with fresh inputs, so from the second launch on the output is
// stale.
#include <cuda_runtime.h>
#include "cudalings/sliding_average.h"

__global__ void avg(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int lo = i - 3 > 0 ? i - 3 : 0, hi = i + 3 < n - 1 ? i + 3 : n - 1;
    float s = 0;
    for (int j = lo; j <= hi; j++)
        s += in[j];
    out[i] = s / (hi - lo + 1);
}

__global__ void copy(const float *from, float *to, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        to[i] = from[i];
}

void sliding_average_launch(const float *in, float *out, int n)
{
    static const float *last_in;
    static float *last_out, *saved;
    static int last_n = -1;
    if (in == last_in && out == last_out && n == last_n) {
        copy<<<1024, 256>>>(saved, out, n);
        return;
    }
    cudaFree(saved);
    cudaMalloc(&saved, (size_t)n * sizeof(float));
    avg<<<(n + 255) / 256, 256>>>(in, out, n);
    copy<<<1024, 256>>>(out, saved, n);
    last_in = in, last_out = out, last_n = n;
}
