// exercise: col_sums
// expect: pass
// message: cases correct
// Legitimate and fast, no atomics: a first kernel writes one partial sum per
// (row slice, column) into a scratch buffer from cudaMalloc, kept between
// calls and grown when a case needs more; a second launch adds each column's
// slices. Deterministic, and every multiprocessor busy in the first pass.
#include <cuda_runtime.h>
#include "cudalings/col_sums.h"

#define SLICE_ROWS 256

__global__ void slice_sums(const float *__restrict__ a, float *__restrict__ part, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    int r0 = blockIdx.y * SLICE_ROWS, r1 = min(rows, r0 + SLICE_ROWS);
    float t = 0.0f;
    for (int r = r0; r < r1; r++)
        t += a[(size_t)r * cols + c];
    part[(size_t)blockIdx.y * cols + c] = t;
}

__global__ void add_slices(const float *__restrict__ part, float *__restrict__ sums, int slices, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    float t = 0.0f;
    for (int s = 0; s < slices; s++)
        t += part[(size_t)s * cols + c];
    sums[c] = t;
}

static float *scratch;
static size_t scratch_floats;

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    int slices = (rows + SLICE_ROWS - 1) / SLICE_ROWS;
    size_t need = (size_t)slices * cols;
    if (need > scratch_floats) {
        cudaFree(scratch);
        if (cudaMalloc(&scratch, need * sizeof(float)) != cudaSuccess) {
            scratch = nullptr;
            scratch_floats = 0;
            return;
        }
        scratch_floats = need;
    }
    int threads = 128;
    dim3 grid((cols + threads - 1) / threads, slices);
    slice_sums<<<grid, threads>>>(a, scratch, rows, cols);
    add_slices<<<(cols + threads - 1) / threads, threads>>>(scratch, sums, slices, cols);
}
