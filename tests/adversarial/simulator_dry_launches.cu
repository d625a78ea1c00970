// exercise: col_sums
// expect: compile
// message: refers to 'cudasimDryLaunches'
// sim-only
// Calls the simulator's dry-launch control (the runner's, for its estimate:
// launches recorded, never run) to tell the launcher's code how many SMs to
// size its grid for, and to leave the later launches unrun: the simulator's
// controls are out of a submission's reach, this one as much as the others.
#include "cudalings/col_sums.h"

__global__ void sums(const float *a, float *s, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < cols) {
        float t = 0;
        for (int r = 0; r < rows; r++)
            t += a[(size_t)r * cols + c];
        s[c] = t;
    }
}

void col_sums_launch(const float *a, float *s, int rows, int cols)
{
    sums<<<(cols + 255) / 256, 256>>>(a, s, rows, cols);
#ifdef __CUDASIM__
    cudasimDryLaunches(132);
#endif
}
