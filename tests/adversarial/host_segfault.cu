// exercise: col_sums
// expect: run
// message: killed by signal 11
#include "cudalings/col_sums.h"
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    volatile int *nowhere = 0;
    *nowhere = 1;
}
