// exercise: sum_reduction
// expect: compile
// message: cudaMallocManaged
// Stages the input in managed memory so that the host adds it up.
#include "cudalings/sum_reduction.h"

__global__ void copy_in(const float *in, float *stage, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        stage[i] = in[i];
}
__global__ void put(float *sum, float v) { *sum = v; }

void sum_reduction_launch(const float *in, float *sum, int n)
{
    float *stage;
    cudaMallocManaged(&stage, n * sizeof(float));
    copy_in<<<(n + 255) / 256, 256>>>(in, stage, n);
    cudaDeviceSynchronize();
    double s = 0;
    for (int i = 0; i < n; i++)
        s += stage[i];
    put<<<1, 1>>>(sum, (float)s);
    cudaFree(stage);
}
