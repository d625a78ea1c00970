// exercise: col_sums
// expect: performance
// message: the reference solution's
// gpu-only
// Correct and coalesced (float4 loads, four columns per thread) but slow on
// a GPU: 16384 columns make 4096 threads, 32 blocks for 132 multiprocessors,
// 3.6x the reference on an H100. The simulator has no clock: it passes there.
#include "cudalings/col_sums.h"
// four columns per thread with float4 loads where the row allows it
__global__ void sums4(const float *a, float *s, int rows, int cols)
{
    int c = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    if (c >= cols)
        return;
    if (cols % 4 == 0) {
        float4 t = make_float4(0, 0, 0, 0);
        for (int r = 0; r < rows; r++) {
            float4 v = *(const float4 *)&a[(size_t)r * cols + c];
            t.x += v.x; t.y += v.y; t.z += v.z; t.w += v.w;
        }
        *(float4 *)&s[c] = t;
    } else {
        for (int k = c; k < c + 4 && k < cols; k++) {
            float t = 0;
            for (int r = 0; r < rows; r++)
                t += a[(size_t)r * cols + k];
            s[k] = t;
        }
    }
}
void col_sums_launch(const float *a, float *s, int rows, int cols)
{
    int threads = (cols + 3) / 4;
    sums4<<<(threads + 127) / 128, 128>>>(a, s, rows, cols);
}
