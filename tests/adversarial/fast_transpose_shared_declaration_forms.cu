// exercise: transpose
// expect: pass
// message: cases correct
// Legitimate: the padded tile of 32 x 8 threads, four elements each, with __shared__ declarations in the
// forms C++ allows: the tile's type through a trait (typename Traits<T>::type) and its padded width from a
// __host__ __device__ constexpr function, volatile before and after __shared__, an array of pointers with
// a trailing aligned attribute, and the shape in a __shared__ struct whose type is defined in the
// declaration. The simulator's rewriter copied that definition into a cast and a sizeof, which g++ refuses
// ('types may not be defined in casts'): the simulator could not compile the file (exit 3). Checked on the
// simulator only (no GPU this session).
#include <cuda_runtime.h>
#include "cudalings/transpose.h"

template <int N>
__host__ __device__ constexpr int padded() { return N + 1; }

template <typename T>
struct Traits {
    using type = T;
};

template <typename T>
__global__ void transpose_forms(const T *__restrict__ in, T *__restrict__ out, int rows, int cols)
{
    __shared__ typename Traits<T>::type tile[32][padded<32>()];
    volatile __shared__ int seen[8];
    __shared__ volatile float unused_volatile[2];
    __shared__ struct {
        int rows, cols;
    } shape;
    __shared__ const T *bases[2] __attribute__((aligned(16)));
    if (threadIdx.x == 0 && threadIdx.y == 0) {
        shape.rows = rows;
        shape.cols = cols;
        bases[0] = in;
        unused_volatile[0] = 0.0f;
    }
    if (threadIdx.x == 0)
        seen[threadIdx.y] = 1;
    __syncthreads();
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < shape.cols && y + j < shape.rows && seen[threadIdx.y])
            tile[threadIdx.y + j][threadIdx.x] = bases[0][(size_t)(y + j) * shape.cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < shape.rows && y + j < shape.cols)
            out[(size_t)(y + j) * shape.rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    transpose_forms<float><<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 8)>>>(in, out, rows, cols);
}
