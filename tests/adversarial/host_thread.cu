// exercise: col_sums
// expect: compile
// message: calls 'pthread_create'
#include <pthread.h>
#include "cudalings/col_sums.h"
static void *later(void *arg) { return arg; }
void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    pthread_t t;
    pthread_create(&t, 0, later, 0);
}
