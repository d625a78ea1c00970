// exercise: matrix_add
// expect: compile
// message: ref__matrix_add_launch
// `#pragma weak` on the reference's launcher: a weak reference links even
// where the symbol is missing (it is then null), so the file would build
// anywhere and call the reference where it can be reached.
#include "cudalings/matrix_add.h"

extern "C" void ref__matrix_add_launch(const float *, const float *, float *, int, int);
#pragma weak ref__matrix_add_launch

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    if (ref__matrix_add_launch)
        ref__matrix_add_launch(a, b, out, rows, cols);
}
