// exercise: transpose
// expect: correctness
// message: on inputs it had not seen before
// gpu-expect: performance|pass
// gpu-message: the reference|cases correct
// (On a GPU the launcher runs once per case, in the capture process, and the measuring process replays
// that call's work every round: what it remembers is never used, every round computes, and the time is
// that of the whole work.)
// Transposes once per size and then only copies the remembered result: fast,
// and right as long as the inputs never change. Every timed round draws new
// ones, and so does each of the simulator's runs of the last case again.
#include <cuda_runtime.h>
#include "cudalings/transpose.h"

__global__ void transpose_once(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void replay(const float4 *from, float4 *to, size_t n4)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x)
        to[i] = from[i];
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    static float *remembered;
    static int remembered_rows = -1, remembered_cols = -1;
    size_t n = (size_t)rows * cols;
    if (rows != remembered_rows || cols != remembered_cols) {
        cudaFree(remembered);
        cudaMalloc(&remembered, (n + 4) * sizeof(float));
        transpose_once<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 32)>>>(in, remembered, rows, cols);
        remembered_rows = rows;
        remembered_cols = cols;
    }
    if (n % 4 == 0)
        replay<<<1024, 256>>>((const float4 *)remembered, (float4 *)out, n / 4);
    else
        transpose_once<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 32)>>>(in, out, rows, cols);
}
