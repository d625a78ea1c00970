// exercise: sliding_average
// expect: compile
// message: sim/sim.h
// sim-only
// Includes the simulator's private header to reach its state and turn its
// checks off from inside the submission.
#include "cudalings/sliding_average.h"
#ifdef __CUDASIM__
#include "../../sim/sim.h"
#endif

__global__ void avg(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

void sliding_average_launch(const float *in, float *out, int n)
{
#ifdef __CUDASIM__
    sim_cur.run = 1;
#endif
    avg<<<(n + 255) / 256, 256>>>(in, out, n);
}
