// exercise: transpose
// expect: pass
// message: cases correct
// Legitimate and fast: the padded 32 x 33 tile of 32 x 8 threads, each thread's four elements copied into
// it with cuda::memcpy_async on a cuda::pipeline of its own (libcu++'s <cuda/pipeline>, make_pipeline(),
// producer_acquire/commit, pipeline_consumer_wait_prior<0>), then __syncthreads() before the transposed
// write-back. The simulator had no <cuda/pipeline>: 'the simulator cannot run libcu++' (exit 3). Checked
// on the simulator only (no GPU this session).
#include <cuda/pipeline>
#include <cuda_runtime.h>
#include "cudalings/transpose.h"

#define TILE 32
#define ROWS 8

// each thread copies its four elements of the tile with cuda::memcpy_async on a pipeline of its own
// (cp.async), waits for them, and the block meets before the transposed write-back from a padded tile
__global__ void transpose_pipe(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    pipe.producer_acquire();
    for (int j = 0; j < TILE; j += ROWS)
        if (x < cols && y + j < rows)
            cuda::memcpy_async(&tile[threadIdx.y + j][threadIdx.x], in + (size_t)(y + j) * cols + x, sizeof(float), pipe);
    pipe.producer_commit();
    cuda::pipeline_consumer_wait_prior<0>(pipe);
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
    pipe.consumer_release();
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_pipe<<<grid, dim3(TILE, ROWS)>>>(in, out, rows, cols);
}
