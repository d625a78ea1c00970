// exercise: matrix_add
// expect: compile
// message: includes 'harness/rng.h'
// Includes the harness's input generator, to predict the inputs: refused
// before anything runs, whatever it would have done with it.
#include "cudalings/matrix_add.h"
#include "../../harness/rng.h"
__global__ void add(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}
void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    int n = rows * cols;
    add<<<(n + 255) / 256, 256>>>(a, b, out, n);
}
