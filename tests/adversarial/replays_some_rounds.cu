// exercise: matmul
// expect: correctness
// message: on inputs it had not seen before
// gpu-expect: performance|pass
// gpu-message: the reference|cases correct
// (On a GPU the launcher runs once per case, in the capture process, and the measuring process replays
// that call's work every round: what it remembers is never used, every round computes, and the time is
// that of the whole work.)
// Computes one launch in four and replays the last result in between: the
// median round would be four times faster. Every timed round has fresh
// inputs and is compared with the reference's output for them.
#include <cuda_runtime.h>
#include "cudalings/matmul.h"
__global__ void naive(const float *a, const float *b, float *c, int m, int k, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    float t = 0;
    for (int p = 0; p < k; p++)
        t += a[(size_t)row * k + p] * b[(size_t)p * n + col];
    c[(size_t)row * n + col] = t;
}
__global__ void copy(const float *from, float *to, size_t count)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
        to[i] = from[i];
}
void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    static float *last;
    static size_t last_count;
    static unsigned launches;
    size_t count = (size_t)m * n;
    if (count != last_count) {
        cudaFree(last);
        cudaMalloc(&last, count * sizeof(float));
        last_count = count;
        launches = 0;
    }
    if (launches++ % 4 == 0) {
        naive<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(a, b, c, m, k, n);
        copy<<<1024, 256>>>(c, last, count);
    } else {
        copy<<<1024, 256>>>(last, c, count);
    }
}
