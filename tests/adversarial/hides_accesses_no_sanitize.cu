// exercise: tile_transpose
// expect: compile
// message: would take code out of the simulator's checks
// gpu-expect: fail
// A naive transpose (no tile, uncoalesced stores) whose device function is marked no_sanitize("thread"):
// compiled so, its loads and stores would not be instrumented, the simulator's counts would not see them,
// and the budgets would pass a kernel the exercise exists to forbid. nvcc ignores the attribute; the
// rewriter refuses it, and a spelling it cannot see (pasted tokens) becomes a harmless attribute
// (hides_accesses_pasted_no_sanitize.cu).
#include "cudalings/tile_transpose.h"
__device__ __attribute__((no_sanitize("thread"))) void move(const float *in, float *out, int rows, int cols, int r, int c)
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
