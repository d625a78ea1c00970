// exercise: sum_reduction
// expect: compile
// message: calling a __host__ function
// nvcc: rejects
// Calls host library code (std::accumulate over a std::vector) from a kernel.
#include <numeric>
#include <vector>
#include "cudalings/sum_reduction.h"

__global__ void total(const float *in, float *sum, int n)
{
    std::vector<float> v(in, in + n);
    *sum = std::accumulate(v.begin(), v.end(), 0.0f);
}

void sum_reduction_launch(const float *in, float *sum, int n)
{
    total<<<1, 1>>>(in, sum, n);
}
