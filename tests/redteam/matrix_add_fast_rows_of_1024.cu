// exercise: matrix_add
// expect: pass
// message: cases correct
// Legitimate: blocks of 1024 x 1 threads, one block row per matrix row; for a
// narrow matrix most of each block is idle (33 columns: 991 idle threads),
// which costs only at the small sizes. assert() in the kernel guards the
// grid's shape, as a careful student does while debugging.
#include <cassert>
#include "cudalings/matrix_add.h"

__global__ void add_rows(const float *a, const float *b, float *out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y;
    assert(row < rows);
    if (col < cols) {
        size_t i = (size_t)row * cols + col;
        out[i] = a[i] + b[i];
    }
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    add_rows<<<dim3((cols + 1023) / 1024, rows), dim3(1024, 1)>>>(a, b, out, rows, cols);
}
