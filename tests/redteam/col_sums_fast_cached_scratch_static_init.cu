// exercise: col_sums
// expect: pass
// message: cases correct
// Legitimate and fast: the two-pass sum with its scratch buffer made once, by
// a function-local static initialised on the first call (the C++ idiom for
// "allocate once"), and the partial sums per 128-row slice. The kernel is a
// template on its block width with __launch_bounds__ and #pragma unroll.
#include <cuda_runtime.h>
#include "cudalings/col_sums.h"

constexpr int SLICE = 128;
constexpr size_t MAX_FLOATS = (size_t)(16384 / SLICE + 1) * 16384;

static float *make_scratch()
{
    float *p = nullptr;
    cudaMalloc(&p, MAX_FLOATS * sizeof(float));
    return p;
}

template <int THREADS>
__global__ void __launch_bounds__(THREADS) first_pass(const float *a, float *part, int rows, int cols)
{
    int c = blockIdx.x * THREADS + threadIdx.x;
    if (c >= cols)
        return;
    int r0 = blockIdx.y * SLICE;
    float t = 0.0f;
    if (r0 + SLICE <= rows) {
        #pragma unroll 8
        for (int r = 0; r < SLICE; r++)
            t += a[(size_t)(r0 + r) * cols + c];
    } else {
        for (int r = r0; r < rows; r++)
            t += a[(size_t)r * cols + c];
    }
    part[(size_t)blockIdx.y * cols + c] = t;
}

template <int THREADS>
__global__ void __launch_bounds__(THREADS) second_pass(const float *part, float *sums, int slices, int cols)
{
    int c = blockIdx.x * THREADS + threadIdx.x;
    if (c >= cols)
        return;
    float t = 0.0f;
    for (int s = 0; s < slices; s++)
        t += part[(size_t)s * cols + c];
    sums[c] = t;
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    static float *scratch = make_scratch();
    int slices = (rows + SLICE - 1) / SLICE;
    if (!scratch || (size_t)slices * cols > MAX_FLOATS)
        return;
    first_pass<256><<<dim3((cols + 255) / 256, slices), 256>>>(a, scratch, rows, cols);
    second_pass<256><<<(cols + 255) / 256, 256>>>(scratch, sums, slices, cols);
}
