// exercise: tile_transpose
// expect: performance
// message: sectors of 32 bytes per request
// gpu-expect: fail
// A naive transpose whose uncoalesced stores are atomicExch: the simulator's atomics are not
// instrumented (an atomic is no race), so its counts missed them and the budgets passed a kernel with no
// tile. An atomic is a global request on a GPU, and is counted as one now.
#include "cudalings/tile_transpose.h"
__global__ void naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        atomicExch(&out[(size_t)c * rows + r], in[(size_t)r * cols + c]);
}
void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    naive<<<grid, block>>>(in, out, rows, cols);
}
