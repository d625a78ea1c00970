// exercise: col_sums
// expect: compile
// message: calls 'cudaGraphCreate'
// A graph of its own runs outside the timed launch.
#include "cudalings/col_sums.h"
extern "C" int cudaGraphCreate(void **graph, unsigned flags);
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    void *g;
    cudaGraphCreate(&g, 0);
}
