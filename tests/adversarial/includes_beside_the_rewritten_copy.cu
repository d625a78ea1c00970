// exercise: matrix_add
// expect: compile
// message: includes 'build/sim/ref/
// sim-only
// Includes through paths that hold only where the simulator compiles: the
// rewriter's copy of this file lies in build/sim/sub/EX-HASH/, where
// __has_include("matrix_add.sim.cpp") is true and "../../ref/" reaches the
// rewritten reference. The original file, read by the preprocessor and by
// nvcc's front end, takes the honest-looking branch; the dependency list of
// the copy's own compile is checked too.
#if __has_include("matrix_add.sim.cpp")
#include "../../ref/matrix_add.raw.o.sim.cpp"
#else
#include "cudalings/matrix_add.h"
__global__ void add(const float *a, const float *b, float *out, int rows, int cols)
{
}
void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    add<<<1, 1>>>(a, b, out, rows, cols);
}
#endif
