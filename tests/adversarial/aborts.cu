// exercise: col_sums
// expect: run
// message: killed by signal 6
#include <stdlib.h>
#include "cudalings/col_sums.h"
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    abort();
}
