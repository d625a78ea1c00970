// exercise: col_sums
// expect: compile
// message: calls 'timer_create'
// A timer whose callback runs on a thread of its own, off the timed launch.
#include <signal.h>
#include <time.h>
#include "cudalings/col_sums.h"
static void tick(union sigval v) { (void)v; }
void col_sums_launch(const float *a, float *s, int rows, int cols)
{
    static timer_t t;
    struct sigevent ev = {};
    ev.sigev_notify = SIGEV_THREAD;
    ev.sigev_notify_function = tick;
    timer_create(CLOCK_MONOTONIC, &ev, &t);
}
