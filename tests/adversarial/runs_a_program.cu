// exercise: col_sums
// expect: compile
// message: calls 'system'
#include <stdlib.h>
#include "cudalings/col_sums.h"
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    system("echo PASS > /tmp/cudalings-pass");
}
