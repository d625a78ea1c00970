// exercise: tile_transpose
// expect: performance
// message: sectors of 32 bytes per request
// gpu-expect: fail
// The naive transpose of hides_accesses_no_sanitize.cu, its attribute's name pasted together by the
// preprocessor where the rewriter cannot see it: cudasim.h's stand-in makes it harmless, the function
// stays instrumented, and its uncoalesced stores fail the budget.
#include "cudalings/tile_transpose.h"
#define CAT(a, b) a##b
#define HIDE __attribute__((CAT(no_, sanitize)("thread")))
__device__ HIDE void move(const float *in, float *out, int rows, int cols, int r, int c)
{
    out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}
__global__ void naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        move(in, out, rows, cols, r, c);
}
void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    naive<<<grid, block>>>(in, out, rows, cols);
}
