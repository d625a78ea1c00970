// exercise: col_sums
// expect: run
// message: timed out after
// A launcher that never returns.
#include "cudalings/col_sums.h"
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    volatile int forever = 1;
    while (forever) {
    }
}
