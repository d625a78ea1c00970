// exercise: matrix_add
// expect: pass
// message: cases correct
// Legitimate: the matrices as flat cuda::std::span parameters (libcu++'s <cuda/std/span>, which C++17's std
// lacks; passed by value, their pointers device pointers), one element a thread in a grid-stride loop
// bounded by out.size(). The simulator had no <cuda/std/span>: it could not compile the file (exit 3).
// Checked on the simulator only (no GPU this session).
#include <cuda/std/span>
#include <cuda_runtime.h>
#include "cudalings/matrix_add.h"

// the matrices as flat spans, one element a thread in a grid-stride loop
__global__ void add_spans(cuda::std::span<const float> a, cuda::std::span<const float> b, cuda::std::span<float> out)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < out.size(); i += (size_t)gridDim.x * blockDim.x)
        out[i] = a[i] + b[i];
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    const size_t n = (size_t)rows * cols;
    const int threads = 256;
    size_t blocks = (n + threads - 1) / threads;
    if (blocks > 8192)
        blocks = 8192;
    add_spans<<<(unsigned)blocks, threads>>>(cuda::std::span<const float>(a, n), cuda::std::span<const float>(b, n),
                                              cuda::std::span<float>(out, n));
}
