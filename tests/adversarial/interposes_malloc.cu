// exercise: col_sums
// expect: compile
// message: malloc
#include <stddef.h>
#include "cudalings/col_sums.h"
extern "C" void *malloc(size_t n) { return 0; }
void col_sums_launch(const float *a, float *sums, int rows, int cols) {}
