// exercise: matrix_add
// expect: pass
// message: cases correct
// Legitimate and fast: the three matrices as flat arrays, float4 loads and
// stores when all three pointers are 16-byte aligned, a grid-stride loop
// over a grid sized from the multiprocessor count and
// cudaOccupancyMaxActiveBlocksPerMultiprocessor, the tail one float at a
// time in the same kernel.
#include <cstdint>
#include <cuda_runtime.h>
#include "cudalings/matrix_add.h"

__global__ void add_flat(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ out, size_t n,
                         bool vector)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t done = 0;
    if (vector) {
        size_t n4 = n / 4;
        const float4 *a4 = reinterpret_cast<const float4 *>(a), *b4 = reinterpret_cast<const float4 *>(b);
        float4 *o4 = reinterpret_cast<float4 *>(out);
        for (size_t k = i; k < n4; k += stride) {
            float4 x = a4[k], y = b4[k];
            o4[k] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
        }
        done = n4 * 4;
    }
    for (size_t k = done + i; k < n; k += stride)
        out[k] = a[k] + b[k];
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    static int grid;
    if (!grid) {
        int device = 0, sms = 0, per_sm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, add_flat, 256, 0);
        grid = (sms > 0 ? sms : 1) * (per_sm > 0 ? per_sm : 1);
    }
    size_t n = (size_t)rows * cols;
    bool vector = ((uintptr_t)a | (uintptr_t)b | (uintptr_t)out) % 16 == 0;
    size_t needed = ((vector ? n / 4 : n) + 255) / 256;
    add_flat<<<(unsigned)(needed < (size_t)grid ? (needed ? needed : 1) : grid), 256>>>(a, b, out, n, vector);
}
