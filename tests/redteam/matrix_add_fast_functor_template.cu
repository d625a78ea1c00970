// exercise: matrix_add
// expect: pass
// message: cases correct
// Legitimate: a generic element-wise kernel, a template over a functor with
// a __device__ operator(), in an anonymous namespace, launched through a
// function template; 16 x 16 blocks, early return for threads off the edge.
#include "cudalings/matrix_add.h"

namespace {
struct plus {
    __device__ float operator()(float x, float y) const { return x + y; }
};

template <typename Op>
__global__ void zip2d(const float *a, const float *b, float *out, int rows, int cols, Op op)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= rows || col >= cols)
        return;
    size_t i = (size_t)row * cols + col;
    out[i] = op(a[i], b[i]);
}

template <typename Op>
void launch_zip(const float *a, const float *b, float *out, int rows, int cols, Op op)
{
    dim3 block(16, 16);
    dim3 grid((cols + 15) / 16, (rows + 15) / 16);
    zip2d<Op><<<grid, block>>>(a, b, out, rows, cols, op);
}
} // namespace

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    launch_zip(a, b, out, rows, cols, plus{});
}
