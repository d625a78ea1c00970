// exercise: matrix_add
// expect: pass
// message: cases correct
// Legitimate and fast: __launch_bounds__ whose arguments are expressions: a
// conditional with a comparison (THREADS > 512 ? 512 : THREADS) and a minimum
// of blocks from a template's member (Occupancy<THREADS, 2048>::blocks, a comma
// in its template arguments). The simulator cut the bound at the wrong comma
// and read the whole list as one comma expression, so a kernel bounded at 256
// was taken as bounded at its second argument, and every launch of 256 threads
// failed with too many resources.
#include <cuda_runtime.h>
#include "cudalings/matrix_add.h"

#define THREADS 256

template <int BLOCK, int PER_SM>
struct Occupancy {
    static constexpr int blocks = PER_SM / BLOCK;
};

__global__ void __launch_bounds__(THREADS > 512 ? 512 : THREADS, Occupancy<THREADS, 2048>::blocks)
add(const float *a, const float *b, float *out, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    add<<<(unsigned)((n + THREADS - 1) / THREADS), THREADS>>>(a, b, out, n);
}
