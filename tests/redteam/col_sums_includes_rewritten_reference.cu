// exercise: col_sums
// expect: compile
// message: includes
// sim-only
// Reaching the reference through the include path, by a route the include
// check does not read: the check preprocesses the original file, but the
// simulator compiles the rewriter's copy in build/sim/sub/EX-HASH/. There
// __has_include("col_sums.sim.cpp") is true (the copy itself), and a path
// relative to it reaches the rewritten reference in build/sim/ref/. nvcc's
// front end, reading the original, sees only the honest-looking branch.
#if __has_include("col_sums.sim.cpp")
#include "../../ref/col_sums.raw.o.sim.cpp"
#else
#include "cudalings/col_sums.h"
__global__ void col_sums_kernel(const float *a, float *sums, int rows, int cols)
{
}
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    col_sums_kernel<<<1, 1>>>(a, sums, rows, cols);
}
#endif
