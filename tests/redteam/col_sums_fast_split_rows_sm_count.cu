// exercise: col_sums
// expect: pass
// message: cases correct
// Legitimate and fast: float2 loads (two columns per thread) where the
// columns allow it, the rows split across blockIdx.y into as many slices as
// it takes to fill every multiprocessor (the count read from the device),
// partial sums combined with atomicAdd into an output zeroed by
// cudaMemsetAsync on the same stream. Errors checked with cudaGetLastError.
#include <cstdio>
#include <cuda_runtime.h>
#include "cudalings/col_sums.h"

__global__ void __launch_bounds__(256)
col_slice_sums2(const float *__restrict__ a, float *__restrict__ sums, int rows, int cols, int rows_per_slice)
{
    int pair = blockIdx.x * blockDim.x + threadIdx.x;
    int c = 2 * pair;
    if (c >= cols)
        return;
    int r0 = blockIdx.y * rows_per_slice;
    int r1 = min(rows, r0 + rows_per_slice);
    if ((cols & 1) == 0) {
        float2 t = make_float2(0.0f, 0.0f);
        const float2 *row = reinterpret_cast<const float2 *>(a + (size_t)r0 * cols + c);
        size_t stride = cols / 2;
        #pragma unroll 4
        for (int r = r0; r < r1; r++, row += stride) {
            float2 v = __ldg(row);
            t.x += v.x;
            t.y += v.y;
        }
        atomicAdd(&sums[c], t.x);
        atomicAdd(&sums[c + 1], t.y);
    } else {
        // odd widths: rows are not 8-byte aligned, so one float at a time
        for (int k = 0; k < 2 && c + k < cols; k++) {
            float t = 0.0f;
            for (int r = r0; r < r1; r++)
                t += a[(size_t)r * cols + c + k];
            atomicAdd(&sums[c + k], t);
        }
    }
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (sms <= 0)
        sms = 1;
    const int threads = 256;
    int col_blocks = ((cols + 1) / 2 + threads - 1) / threads;
    // about 8 blocks per multiprocessor in all, never slices under 64 rows
    int slices = (8 * sms + col_blocks - 1) / col_blocks;
    int rows_per_slice = (rows + slices - 1) / slices;
    if (rows_per_slice < 64)
        rows_per_slice = 64;
    slices = (rows + rows_per_slice - 1) / rows_per_slice;
    cudaMemsetAsync(sums, 0, sizeof(float) * cols);
    col_slice_sums2<<<dim3(col_blocks, slices), threads>>>(a, sums, rows, cols, rows_per_slice);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        fprintf(stderr, "col_sums: %s\n", cudaGetErrorString(e));
}
