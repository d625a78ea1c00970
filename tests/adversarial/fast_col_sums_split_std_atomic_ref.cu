// exercise: col_sums_split
// expect: pass
// message: cases correct
// Legitimate and fast: the lesson's chunks of 256 rows, each chunk's column sum added into sums[col]
// through a cuda::std::atomic_ref<float> (libcu++'s <cuda/std/atomic>, relaxed), cuda::std::numeric_limits
// in a static_assert, sums zeroed by cudaMemsetAsync. The simulator's cuda::std was the C++ library's std
// under a second name, which C++17 gives no atomic_ref: it could not compile the file (exit 3). Checked on
// the simulator only (no GPU this session).
#include <cuda/std/atomic>
#include <cuda/std/limits>
#include <cuda_runtime.h>
#include "cudalings/col_sums_split.h"

#define THREADS 256
#define ROWS_PER_BLOCK 256

__global__ void split(const float *__restrict__ a, float *__restrict__ sums, int rows, int cols)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols)
        return;
    const int first = blockIdx.y * ROWS_PER_BLOCK;
    const int last = min(first + ROWS_PER_BLOCK, rows);
    float s = 0.0f;
    for (int r = first; r < last; ++r)
        s += a[(size_t)r * cols + col];
    cuda::std::atomic_ref<float> total(sums[col]);
    total.fetch_add(s, cuda::std::memory_order_relaxed);
}

void col_sums_split_launch(const float *a, float *sums, int rows, int cols)
{
    static_assert(cuda::std::numeric_limits<int>::max() > ROWS_PER_BLOCK, "");
    cudaMemsetAsync(sums, 0, (size_t)cols * sizeof(float));
    dim3 grid((cols + THREADS - 1) / THREADS, (rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK);
    split<<<grid, THREADS>>>(a, sums, rows, cols);
}
