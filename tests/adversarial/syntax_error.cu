// exercise: col_sums
// expect: compile
// message: syntax_error.cu:7:
#include "cudalings/col_sums.h"
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    int x = ;
}
