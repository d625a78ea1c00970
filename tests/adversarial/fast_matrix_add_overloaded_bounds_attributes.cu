// exercise: matrix_add
// expect: pass
// message: cases correct
// Legitimate and fast: two overloads of one kernel name, each with its own
// __launch_bounds__ (float4 at 128 threads, float at 512); the launcher asks
// cudaFuncGetAttributes for each overload's maxThreadsPerBlock before its first
// launch and launches that many threads, as CUDA answers each bound. The
// simulator knew the bound of a kernel that is one plain function only, answered
// 1024, and the launch failed with too many resources.
#include <cuda_runtime.h>
#include "cudalings/matrix_add.h"

__global__ void __launch_bounds__(128) add(const float4 *a, const float4 *b, float4 *out, size_t n4)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 x = a[i], y = b[i];
        out[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

__global__ void __launch_bounds__(512) add(const float *a, const float *b, float *out, size_t from, size_t n)
{
    size_t i = from + (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    void (*wide)(const float4 *, const float4 *, float4 *, size_t) = add;
    void (*narrow)(const float *, const float *, float *, size_t, size_t) = add;
    cudaFuncAttributes wide_attr, narrow_attr;
    cudaFuncGetAttributes(&wide_attr, wide);
    cudaFuncGetAttributes(&narrow_attr, narrow);
    size_t n = (size_t)rows * cols, n4 = n / 4;
    int wb = wide_attr.maxThreadsPerBlock, nb = narrow_attr.maxThreadsPerBlock;
    if (n4 > 0)
        wide<<<(unsigned)((n4 + wb - 1) / wb), wb>>>((const float4 *)a, (const float4 *)b, (float4 *)out, n4);
    if (n > 4 * n4)
        narrow<<<(unsigned)((n - 4 * n4 + nb - 1) / nb), nb>>>(a, b, out, 4 * n4, n);
}
