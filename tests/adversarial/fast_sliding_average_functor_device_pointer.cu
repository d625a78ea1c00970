// exercise: sliding_average
// expect: pass
// message: cases correct
// Legitimate: the tiled window, its kernel a template over a functor (struct Mean, a __device__ operator(),
// its radius a static constexpr member, a template parameter's default), its sums through a __device__
// pointer to a __device__ function (__device__ float (*combine)(float, float) = plus). The simulator's
// rewriter took the pointer's declaration for a function's, left it out of device memory, and every
// launch ended reading 'the host variable combine' as an illegal address. Checked on the simulator only
// (no GPU this session).
#include <cuda_runtime.h>
#include "cudalings/sliding_average.h"

constexpr int kRadius = 3;
constexpr int kThreads = 256;

struct Mean {
    static constexpr int radius = kRadius;
    __device__ float operator()(float sum, int count) const { return count == 2 * radius + 1 ? sum * (1.0f / 7) : sum / count; }
};

__device__ float plus(float a, float b) { return a + b; }
__device__ float (*combine)(float, float) = plus;

template <class Finish, int R = Finish::radius>
__global__ void window(const float *__restrict__ in, float *__restrict__ out, int n, Finish finish)
{
    __shared__ float tile[kThreads + 2 * R];
    const int start = blockIdx.x * kThreads, i = start + threadIdx.x;
    tile[threadIdx.x + R] = i < n ? in[i] : 0.0f;
    if (threadIdx.x < 2 * R) {
        const int j = threadIdx.x < R ? start - R + threadIdx.x : start + kThreads + threadIdx.x - R;
        tile[threadIdx.x < R ? threadIdx.x : kThreads + threadIdx.x] = j >= 0 && j < n ? in[j] : 0.0f;
    }
    __syncthreads();
    if (i >= n)
        return;
    float s = 0.0f;
    for (int d = 0; d <= 2 * R; ++d)
        s = combine(s, tile[threadIdx.x + d]);
    const int count = min(i + R, n - 1) - max(i - R, 0) + 1;
    out[i] = finish(s, count);
}

void sliding_average_launch(const float *in, float *out, int n)
{
    window<<<(n + kThreads - 1) / kThreads, kThreads>>>(in, out, n, Mean{});
}
