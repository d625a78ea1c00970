// exercise: col_sums
// expect: pass
// message: cases correct
// Legitimate and fast: four columns per thread with float4 loads where the
// rows allow it, and the rows split across blocks so that every
// multiprocessor has work; partial sums combined with atomicAdd.
#include <cuda_runtime.h>
#include "cudalings/col_sums.h"
#define ROWS_PER_BLOCK 128
__global__ void sums4(const float *a, float *s, int rows, int cols)
{
    int c = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    int r0 = blockIdx.y * ROWS_PER_BLOCK, r1 = min(rows, r0 + ROWS_PER_BLOCK);
    if (c >= cols)
        return;
    if (cols % 4 == 0) {
        float4 t = make_float4(0, 0, 0, 0);
        for (int r = r0; r < r1; r++) {
            float4 v = *(const float4 *)&a[(size_t)r * cols + c];
            t.x += v.x; t.y += v.y; t.z += v.z; t.w += v.w;
        }
        atomicAdd(&s[c], t.x);
        atomicAdd(&s[c + 1], t.y);
        atomicAdd(&s[c + 2], t.z);
        atomicAdd(&s[c + 3], t.w);
    } else {
        for (int k = c; k < c + 4 && k < cols; k++) {
            float t = 0;
            for (int r = r0; r < r1; r++)
                t += a[(size_t)r * cols + k];
            atomicAdd(&s[k], t);
        }
    }
}
void col_sums_launch(const float *a, float *s, int rows, int cols)
{
    cudaMemsetAsync(s, 0, cols * sizeof(float));
    int threads = (cols + 3) / 4;
    dim3 grid((threads + 127) / 128, (rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK);
    sums4<<<grid, 128>>>(a, s, rows, cols);
}
