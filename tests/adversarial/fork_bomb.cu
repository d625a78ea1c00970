// exercise: col_sums
// expect: compile
// message: calls 'fork'
// A fork bomb in the launcher: refused before it is linked.
#include <unistd.h>
#include "cudalings/col_sums.h"
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    for (;;)
        fork();
}
