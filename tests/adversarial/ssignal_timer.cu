// exercise: sum_reduction
// expect: compile
// message: signal
// Catches SIGALRM through glibc's ssignal() (a name that is not signal())
// and arms an interval timer with setitimer(), so host code runs between
// and during launches.
#include <csignal>
#include <sys/time.h>
#include "cudalings/sum_reduction.h"

extern "C" void (*ssignal(int, void (*)(int)))(int);

static volatile int ticks;
static void tick(int) { ticks++; }

__global__ void sum1(const float *in, float *sum, int n)
{
    if (threadIdx.x == 0) {
        float s = 0;
        for (int i = 0; i < n; i++)
            s += in[i];
        *sum = s;
    }
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    ssignal(SIGALRM, tick);
    struct itimerval t = { { 0, 1000 }, { 0, 1000 } };
    setitimer(ITIMER_REAL, &t, nullptr);
    sum1<<<1, 32>>>(in, sum, n);
}
