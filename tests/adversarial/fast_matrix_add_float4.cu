// exercise: matrix_add
// expect: pass
// message: cases correct
// Legitimate and fast: the matrices as one flat array, float4 loads and
// stores in a grid-stride loop, the tail element by element.
#include "cudalings/matrix_add.h"
__global__ void add4(const float4 *a, const float4 *b, float4 *out, size_t n4)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
        float4 x = a[i], y = b[i];
        out[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}
__global__ void add_tail(const float *a, const float *b, float *out, size_t from, size_t n)
{
    size_t i = from + blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}
void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    size_t n = (size_t)rows * cols, n4 = n / 4;
    if (n4)
        add4<<<528, 256>>>((const float4 *)a, (const float4 *)b, (float4 *)out, n4);
    if (n % 4)
        add_tail<<<1, 32>>>(a, b, out, n4 * 4, n);
}
