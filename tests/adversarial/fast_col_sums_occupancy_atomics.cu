// exercise: col_sums
// expect: pass
// message: cases correct
// Legitimate and fast: the grid sized from cudaDevAttrMultiProcessorCount and
// cudaOccupancyMaxActiveBlocksPerMultiprocessor, rows split across blocks in
// y, partial column sums combined with atomicAdd into an output zeroed by
// cudaMemset; a templated kernel launched from a templated helper.
#include <cuda_runtime.h>
#include "cudalings/col_sums.h"

template <int THREADS, typename T>
__global__ void __launch_bounds__(THREADS) partial_sums(const T *__restrict__ a, T *__restrict__ sums,
                                                        int rows, int cols, int rows_per_block)
{
    int col = blockIdx.x * THREADS + threadIdx.x;
    if (col >= cols)
        return;
    int r0 = blockIdx.y * rows_per_block;
    int r1 = min(rows, r0 + rows_per_block);
    T s = 0;
    for (int r = r0; r < r1; r++)
        s += __ldcs(a + (size_t)r * cols + col);
    atomicAdd(&sums[col], s);
}

template <int THREADS, typename T>
static void launch_partial(const T *a, T *sums, int rows, int cols)
{
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, partial_sums<THREADS, T>, THREADS, 0);
    if (sms < 1)
        sms = 1;
    if (per_sm < 1)
        per_sm = 1;
    int col_blocks = (cols + THREADS - 1) / THREADS;
    int want = sms * per_sm * 2;
    int splits = (want + col_blocks - 1) / col_blocks;
    if (splits > rows)
        splits = rows;
    if (splits > 65535)
        splits = 65535;
    int rows_per_block = (rows + splits - 1) / splits;
    splits = (rows + rows_per_block - 1) / rows_per_block;
    cudaMemset(sums, 0, (size_t)cols * sizeof(T));
    partial_sums<THREADS, T><<<dim3(col_blocks, splits), THREADS>>>(a, sums, rows, cols, rows_per_block);
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    launch_partial<128>(a, sums, rows, cols);
    if (cudaPeekAtLastError() != cudaSuccess)
        cudaDeviceSynchronize();
}
