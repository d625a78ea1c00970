// exercise: sliding_average
// expect: compile
// message: device code does not support exception handling
// nvcc: rejects
// Throws a C++ exception in a kernel: g++ alone would take it, nvcc does not.
#include <stdexcept>
#include "cudalings/sliding_average.h"

__global__ void avg(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        throw std::out_of_range("past the end");
    int lo = i - 3 > 0 ? i - 3 : 0, hi = i + 3 < n - 1 ? i + 3 : n - 1;
    float s = 0;
    for (int j = lo; j <= hi; j++)
        s += in[j];
    out[i] = s / (hi - lo + 1);
}

void sliding_average_launch(const float *in, float *out, int n)
{
    avg<<<(n + 255) / 256, 256>>>(in, out, n);
}
