// exercise: col_sums
// expect: compile
// message: cannot be configured
// <<<>>> on a function that is not __global__: nvcc refuses it.
#include "cudalings/col_sums.h"
void sums(const float *a, float *s, int rows, int cols)
{
    for (int c = 0; c < cols; c++) {
        float t = 0;
        for (int r = 0; r < rows; r++)
            t += a[(size_t)r * cols + c];
        s[c] = t;
    }
}
void col_sums_launch(const float *a, float *s, int rows, int cols)
{
    sums<<<1, 1>>>(a, s, rows, cols);
}
