// exercise: matrix_add
// expect: pass
// message: cases correct
// Legitimate and fast: nvcc's optimisation hints (__builtin_assume, which g++ 12 lacks and the simulator
// refused as undeclared; __builtin_assume_aligned, __builtin_expect), streaming loads and stores
// (__ldcs, __stcs) four floats at a time where the whole matrix is float4s and one at a time for the
// rest, the vector types' sizes and alignments checked at compile time, and host code that keeps its
// block size in a std::unique_ptr and a scratch array from new[] (freed with delete[]).
#include <memory>
#include <cuda_runtime.h>
#include "cudalings/matrix_add.h"

static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "a float4 is one 16-byte load");
static_assert(alignof(float2) == 8 && alignof(int4) == 16, "vector types are aligned to their size");

__global__ void add4(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ out, size_t n)
{
    __builtin_assume(n > 0);
    const float4 *a4 = (const float4 *)__builtin_assume_aligned(a, 16);
    const float4 *b4 = (const float4 *)__builtin_assume_aligned(b, 16);
    float4 *o4 = (float4 *)__builtin_assume_aligned(out, 16);
    size_t n4 = n / 4, step = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += step) {
        float4 x = __ldcs(a4 + i), y = __ldcs(b4 + i);
        __stcs(o4 + i, make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w));
    }
    /* the last n % 4 floats */
    size_t t = 4 * n4 + (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (__builtin_expect(t < n, 0))
        __stcs(out + t, __ldcs(a + t) + __ldcs(b + t));
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    auto threads = std::make_unique<int>(256);
    int *blocks = new int[1];
    size_t n = (size_t)rows * cols;
    size_t want = (n / 4 + *threads - 1) / *threads;
    blocks[0] = (int)(want < 1 ? 1 : want > 4096 ? 4096 : want);
    add4<<<blocks[0], *threads>>>(a, b, out, n);
    delete[] blocks;
}
