// exercise: transpose
// expect: compile
// message: refers to 'cudalings_reference_launcher'
// Takes the reference's address through the pointer the harness's glue
// exports, and calls through it.
#include "cudalings/transpose.h"
extern "C" const void *const cudalings_reference_launcher;
void transpose_launch(const float *in, float *out, int rows, int cols)
{
    ((transpose_launch_t *)cudalings_reference_launcher)(in, out, rows, cols);
}
