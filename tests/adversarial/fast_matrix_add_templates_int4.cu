// exercise: matrix_add
// expect: pass
// message: cases correct
// Legitimate: a kernel template launched from a function template, the rows
// read with int4 vector loads where a row is 16-byte aligned (cols a
// multiple of 4) and element by element otherwise; 2D blocks.
#include <cuda_runtime.h>
#include "cudalings/matrix_add.h"

template <bool VEC>
__global__ void add_rows(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ out,
                         int rows, int cols)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int c = (blockIdx.x * blockDim.x + threadIdx.x) * (VEC ? 4 : 1);
    if (row >= rows || c >= cols)
        return;
    size_t i = (size_t)row * cols + c;
    if (VEC) {
        int4 x = *reinterpret_cast<const int4 *>(a + i);
        int4 y = *reinterpret_cast<const int4 *>(b + i);
        float4 r;
        r.x = __int_as_float(x.x) + __int_as_float(y.x);
        r.y = __int_as_float(x.y) + __int_as_float(y.y);
        r.z = __int_as_float(x.z) + __int_as_float(y.z);
        r.w = __int_as_float(x.w) + __int_as_float(y.w);
        *reinterpret_cast<float4 *>(out + i) = r;
    } else {
        out[i] = a[i] + b[i];
    }
}

template <bool VEC, int BX, int BY>
static void run(const float *a, const float *b, float *out, int rows, int cols)
{
    int per_thread = VEC ? 4 : 1;
    dim3 block(BX, BY);
    dim3 grid((cols / per_thread + BX - 1) / BX, (rows + BY - 1) / BY);
    add_rows<VEC><<<grid, block>>>(a, b, out, rows, cols);
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    if (cols % 4 == 0)
        run<true, 32, 8>(a, b, out, rows, cols);
    else
        run<false, 32, 8>(a, b, out, rows, cols);
}
