// exercise: col_sums
// expect: correctness
// message: none of them written
#include "cudalings/col_sums.h"
void col_sums_launch(const float *a, float *sums, int rows, int cols) {}
