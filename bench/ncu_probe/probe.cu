// Probe: Nsight Compute's memory metrics on transpose variants, one launch each
// inside cudaProfilerStart/Stop, and what ncu costs per run (bench/ncu-budgets-h100.md).
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#include <cooperative_groups.h>
#include <cuda_pipeline.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define T 32
__global__ void naive_turned(const float *in, float *out, int rows, int cols)
{   // coalesced writes, reads down columns, no shared memory
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;   // x: column of out
    if (x < rows && y < cols) out[(size_t)y * rows + x] = in[(size_t)x * cols + y];
}
__global__ void padded(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[T][T + 1];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * T + threadIdx.x; y = blockIdx.x * T + threadIdx.y;
    if (x < rows && y < cols) out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}
__global__ void unpadded(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[T][T];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * T + threadIdx.x; y = blockIdx.x * T + threadIdx.y;
    if (x < rows && y < cols) out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}
__global__ void shuffles(const float *in, float *out, int rows, int cols)
{   // 32x32 block of one warp: lane l loads row r of the square, columns via shuffles
    int bx = blockIdx.x * T, by = blockIdx.y * T, lane = threadIdx.x;
    float v[T];
    #pragma unroll
    for (int r = 0; r < T; r++) v[r] = in[(size_t)(by + r) * cols + bx + lane];
    // out row (bx + c), columns by..by+31: lane l needs in[by+l][bx+c] = v[l] of lane c
    #pragma unroll
    for (int c = 0; c < T; c++) {
        float mine = 0;
        #pragma unroll
        for (int r = 0; r < T; r++) { float s = __shfl_sync(0xffffffff, v[r], c); if (r == lane) mine = s; }
        out[(size_t)(bx + c) * rows + by + lane] = mine;
    }
}
__global__ void copy4(const float4 *in, float4 *out, size_t n4)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n4) out[i] = in[i];
}
__global__ void cp_async_tile(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[T][T + 1];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    __pipeline_memcpy_async(&tile[threadIdx.y][threadIdx.x], &in[(size_t)y * cols + x], 4);
    __pipeline_commit(); __pipeline_wait_prior(0);
    __syncthreads();
    x = blockIdx.y * T + threadIdx.x; y = blockIdx.x * T + threadIdx.y;
    out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}
int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "padded";
    int n = 4096; size_t bytes = (size_t)n * n * 4;
    float *in, *out; cudaMalloc(&in, bytes); cudaMalloc(&out, bytes); cudaMemset(in, 0, bytes);
    dim3 g(n / T, n / T), b(T, T);
    cudaDeviceSynchronize();
    cudaProfilerStart();
    if (!strcmp(which, "naive")) naive_turned<<<g, b>>>(in, out, n, n);
    else if (!strcmp(which, "padded")) padded<<<g, b>>>(in, out, n, n);
    else if (!strcmp(which, "unpadded")) unpadded<<<g, b>>>(in, out, n, n);
    else if (!strcmp(which, "shuffles")) shuffles<<<g, 32>>>(in, out, n, n);
    else if (!strcmp(which, "copy4")) copy4<<<(bytes / 16 + 255) / 256, 256>>>((float4 *)in, (float4 *)out, bytes / 16);
    else if (!strcmp(which, "cp_async")) cp_async_tile<<<g, b>>>(in, out, n, n);
    cudaDeviceSynchronize();
    cudaProfilerStop();
    padded<<<g, b>>>(in, out, n, n);   // outside the range: must not be profiled
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s: %s\n", which, cudaGetErrorString(e));
    return e != cudaSuccess;
}
