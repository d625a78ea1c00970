// exercise: matrix_add
// expect: compile
// message: includes 'harness/rng.h'
// gpu-expect: compile
// gpu-message: includes 'harness/rng.h'|in a file that is neither yours nor the exercise's header
// Includes the harness's input generator, to predict the inputs: refused
// before anything runs, whatever it would have done with it. nvcc may stop first inside the
// header, whose own includes are named from the root (harness/dtype.h): its text is not shown.
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
