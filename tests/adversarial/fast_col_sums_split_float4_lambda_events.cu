// exercise: col_sums_split
// expect: pass
// message: cases correct
// Legitimate and fast: four columns a thread with float4 loads where every row is 16-byte aligned
// (cols % 4 == 0; a scalar kernel otherwise), picked by a template with if constexpr; its own zeroing
// kernel; the kernels launched through a generic lambda that takes the kernel as an argument, their
// configurations in a std::vector; an event recorded and waited for before the launcher returns.
#include <vector>
#include <cuda_runtime.h>
#include "cudalings/col_sums_split.h"

#define THREADS 128
#define ROWS_PER_BLOCK 256

__global__ void zero(const float *, float *sums, int, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < cols)
        sums[c] = 0.0f;
}

template <int VEC>
__global__ void __launch_bounds__(THREADS)
    chunk_sums(const float *__restrict__ a, float *__restrict__ sums, int rows, int cols)
{
    int c = VEC * (blockIdx.x * THREADS + threadIdx.x);
    if (c >= cols)
        return;
    int first = blockIdx.y * ROWS_PER_BLOCK, last = min(first + ROWS_PER_BLOCK, rows);
    if constexpr (VEC == 4) {
        float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll 8
        for (int r = first; r < last; r++) {
            float4 x = __ldg(reinterpret_cast<const float4 *>(a + (size_t)r * cols + c));
            acc.x += x.x;
            acc.y += x.y;
            acc.z += x.z;
            acc.w += x.w;
        }
        atomicAdd(&sums[c], acc.x);
        atomicAdd(&sums[c + 1], acc.y);
        atomicAdd(&sums[c + 2], acc.z);
        atomicAdd(&sums[c + 3], acc.w);
    } else {
        float acc = 0.0f;
#pragma unroll 8
        for (int r = first; r < last; r++)
            acc += __ldg(a + (size_t)r * cols + c);
        atomicAdd(&sums[c], acc);
    }
}

typedef void kernel_t(const float *, float *, int, int);

void col_sums_split_launch(const float *a, float *sums, int rows, int cols)
{
    struct step {
        kernel_t *kernel;
        dim3 grid;
    };
    int vec = cols % 4 == 0 ? 4 : 1;
    int chunks = (rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK;
    std::vector<step> steps;
    steps.push_back({ zero, dim3((cols + THREADS - 1) / THREADS) });
    steps.push_back({ vec == 4 ? chunk_sums<4> : chunk_sums<1>,
                      dim3((cols / vec + THREADS - 1) / THREADS, chunks) });
    auto launch = [&](auto kernel, dim3 grid) { kernel<<<grid, THREADS>>>(a, sums, rows, cols); };
    for (const step &s : steps)
        launch(s.kernel, s.grid);

    cudaEvent_t done;
    cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
    cudaEventRecord(done, 0);
    cudaEventSynchronize(done);
    cudaEventDestroy(done);
}
