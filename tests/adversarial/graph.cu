// exercise: col_sums
// expect: compile
// message: calls 'cudaGraphCreate'
// A graph of its own runs outside the timed launch.
#include "cudalings/col_sums.h"
#ifdef __CUDASIM__
extern "C" int cudaGraphCreate(void **graph, unsigned flags);
typedef void *graph_t;
#else
typedef cudaGraph_t graph_t;
#endif
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    graph_t g;
    cudaGraphCreate(&g, 0);
}
