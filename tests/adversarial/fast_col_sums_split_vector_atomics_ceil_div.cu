// exercise: col_sums_split
// expect: pass
// message: cases correct
// Legitimate and fast: four columns a thread where cols % 4 == 0, added into sums with compute capability
// 9's atomicAdd on a float4 (atomic element by element); libcu++'s cuda::ceil_div for the grid and
// cuda::std::numeric_limits; a static kernel of its own that zeroes sums; the kernel templated on its
// chunk of rows and instantiated explicitly. The simulator refused the instantiation as a kernel called
// without <<<>>>, and had neither the float4 atomicAdd nor <cuda/cmath>.
#include <cuda/cmath>
#include <cuda/std/limits>
#include <cuda_runtime.h>
#include "cudalings/col_sums_split.h"

static __global__ void zero(float *sums, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < cols)
        sums[c] = 0.0f;
}

template <int ROWS>
__global__ void chunk_sums4(const float *__restrict__ a, float *__restrict__ sums, int rows, int cols)
{
    int c = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    if (c >= cols)
        return;
    int first = blockIdx.y * ROWS, last = min(first + ROWS, rows);
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int r = first; r < last; r++) {
        float4 x = *reinterpret_cast<const float4 *>(a + (size_t)r * cols + c);
        acc.x += x.x;
        acc.y += x.y;
        acc.z += x.z;
        acc.w += x.w;
    }
    atomicAdd(reinterpret_cast<float4 *>(sums + c), acc);
}

template <int ROWS>
__global__ void chunk_sums1(const float *__restrict__ a, float *__restrict__ sums, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    int first = blockIdx.y * ROWS, last = min(first + ROWS, rows);
    float acc = 0.0f;
    for (int r = first; r < last; r++)
        acc += a[(size_t)r * cols + c];
    atomicAdd(sums + c, acc);
}

template __global__ void chunk_sums4<256>(const float *__restrict__, float *__restrict__, int, int);
template __global__ void chunk_sums1<256>(const float *__restrict__, float *__restrict__, int, int);

void col_sums_split_launch(const float *a, float *sums, int rows, int cols)
{
    constexpr int THREADS = 128, ROWS = 256;
    static_assert(ROWS < cuda::std::numeric_limits<short>::max(), "a chunk's rows fit a short");
    zero<<<cuda::ceil_div(cols, THREADS), THREADS>>>(sums, cols);
    int chunks = cuda::ceil_div(rows, ROWS);
    if (cols % 4 == 0)
        chunk_sums4<ROWS><<<dim3(cuda::ceil_div(cols / 4, THREADS), chunks), THREADS>>>(a, sums, rows, cols);
    else
        chunk_sums1<ROWS><<<dim3(cuda::ceil_div(cols, THREADS), chunks), THREADS>>>(a, sums, rows, cols);
}
