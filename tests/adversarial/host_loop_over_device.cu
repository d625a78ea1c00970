// exercise: matrix_add
// expect: run
// message: case 1x1
// The launcher adds the matrices on the host, through the "device" pointers:
// on a GPU they are not host memory at all (a segfault); on the simulator
// they are, but it keeps them out of host code's reach outside a kernel.
#include "cudalings/matrix_add.h"
void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    for (long i = 0; i < (long)rows * cols; i++)
        out[i] = a[i] + b[i];
}
