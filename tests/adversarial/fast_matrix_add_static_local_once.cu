// exercise: matrix_add
// expect: pass
// message: cases correct
// Legitimate: the block shape is worked out once, by a function-local static
// (C++ guards its initialisation with an atomic), and the launches are
// counted in a std::atomic. On the simulator the instrumented file calls
// __tsan_atomic* for both, which the simulator must provide.
#include <atomic>
#include <cuda_runtime.h>
#include "cudalings/matrix_add.h"

static std::atomic<int> launches{0};

static dim3 pick_block()
{
    int device = 0, warp = 32;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
    return dim3(warp, 8);
}

__global__ void add(const float *a, const float *b, float *out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols)
        out[(size_t)row * cols + col] = a[(size_t)row * cols + col] + b[(size_t)row * cols + col];
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    static const dim3 block = pick_block();
    launches.fetch_add(1, std::memory_order_relaxed);
    add<<<dim3((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y), block>>>(a, b, out, rows, cols);
}
