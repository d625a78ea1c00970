// exercise: col_sums
// expect: compile
// message: calls 'environ'
// Replaces the environment from a constructor, to turn a simulator check off:
// the runner's settings come over its private channel, and this is refused.
#include "cudalings/col_sums.h"
extern char **environ;
static char *quiet[] = { (char *)"CUDASIM_ORDER_CHECK=0", 0 };
__attribute__((constructor)) static void set_env(void) { environ = quiet; }
__global__ void sums(const float *a, float *s, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    float t = 0;
    for (int r = 0; r < rows; r++)
        t += a[(size_t)r * cols + c];
    s[c] = t;
}
void col_sums_launch(const float *a, float *s, int rows, int cols)
{
    sums<<<(cols + 255) / 256, 256>>>(a, s, rows, cols);
}
