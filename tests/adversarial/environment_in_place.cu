// exercise: col_sums
// expect: correctness
// message: depends on the order in which blocks run
// sim-only
// Turns the simulator's order check off by writing into the environment's
// own strings (no setenv, no environ), then lets each block add the partial
// sums of the block before it, which only the order check sees: the check
// is the runner's setting, fixed before the submission was loaded.
#include <cstdlib>
#include <cstring>
#include "cudalings/col_sums.h"

__attribute__((constructor)) static void quiet()
{
    char *v = getenv("CUDASIM_ORDER_CHECK");
    if (v)
        strcpy(v, "0");
}

// block y sums rows [y * 8, y * 8 + 8) and adds what block y - 1 left in sums
__global__ void chained(const float *a, float *sums, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    float s = blockIdx.y ? sums[c] : 0.0f;
    for (int r = blockIdx.y * 8; r < rows && r < (int)(blockIdx.y + 1) * 8; r++)
        s += a[(size_t)r * cols + c];
    sums[c] = s;
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    chained<<<dim3((cols + 255) / 256, (rows + 7) / 8), 256>>>(a, sums, rows, cols);
}
