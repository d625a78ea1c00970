// exercise: col_sums
// expect: compile
// message: refers to 'cudasimConfigure'
// sim-only
// Reaches the simulator's own settings through an assembler label, under
// #ifdef __CUDASIM__, to turn its order check and its time limit off.
#include "cudalings/col_sums.h"

#ifdef __CUDASIM__
extern "C" void settings(int check_order, double seconds) __asm__("cudasimConfigure");
#endif

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
#ifdef __CUDASIM__
    settings(0, 0.0);
#endif
    sums<<<(cols + 255) / 256, 256>>>(a, s, rows, cols);
}
