// exercise: col_sums
// expect: run
// message: did not reach its first case
// A static initialiser that never returns: reported within seconds, not after
// a case's whole time limit.
#include "cudalings/col_sums.h"
static int spin(void)
{
    volatile unsigned long n = 0;
    for (;;)
        n++;
    return 0;
}
static int never = spin();
void col_sums_launch(const float *a, float *s, int rows, int cols) {}
