// exercise: col_sums
// expect: compile
// message: calls 'fopen'
// Writing a results file of its own.
#include <stdio.h>
#include "cudalings/col_sums.h"
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    FILE *f = fopen("results.json", "w");
    fputs("{\"score\": 100}", f);
    fclose(f);
}
