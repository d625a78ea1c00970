// exercise: transpose
// expect: pass
// message: cases correct
// Legitimate and fast: an unpadded 32 x 32 tile whose column index is
// XOR-swizzled by the row (tile[r][c ^ r]): rows and columns both read
// conflict-free without the padding column. Blocks of 32 x 8, four rows per
// thread, __restrict__ and #pragma unroll.
#include "cudalings/transpose.h"

__global__ void __launch_bounds__(256)
transpose_swizzled(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[32][32];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * 32 + tx, y = blockIdx.y * 32 + ty;
    #pragma unroll
    for (int k = 0; k < 32; k += 8) {
        int r = ty + k;
        if (x < cols && y + k < rows)
            tile[r][tx ^ r] = in[(size_t)(y + k) * cols + x];
    }
    __syncthreads();
    x = blockIdx.y * 32 + tx;
    y = blockIdx.x * 32 + ty;
    #pragma unroll
    for (int k = 0; k < 32; k += 8) {
        int c = ty + k; // column of the tile, row of out
        if (x < rows && y + k < cols)
            out[(size_t)(y + k) * rows + x] = tile[tx][c ^ tx];
    }
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    transpose_swizzled<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 8)>>>(in, out, rows, cols);
}
