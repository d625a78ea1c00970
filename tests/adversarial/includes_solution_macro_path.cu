// exercise: sum_reduction
// expect: compile
// message: solutions/sum_reduction.cu
// Builds the solution's path with macros so that no string in the file
// names it, renames its launcher, includes it and calls it.
#define STR(x) #x
#define PATH(x) STR(x)
#define sum_reduction_launch theirs
#include PATH(../../solutions/sum_reduction.cu)
#undef sum_reduction_launch

void sum_reduction_launch(const float *in, float *sum, int n)
{
    theirs(in, sum, n);
}
