// exercise: transpose
// expect: pass
// message: cases correct
// Legitimate and fast: float4 loads and stores of global memory (each thread
// four neighbours of a row), 8 x 32 threads per padded 32 x 32 tile, scalar
// code on edges and odd widths. Shared memory stays conflict-free: eight
// threads x four rows span the 32 banks.
#include "cudalings/transpose.h"

__global__ void transpose_vec(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[32][33];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * 32 + 4 * tx, y = blockIdx.y * 32 + ty;
    if (y < rows) {
        if ((cols & 3) == 0 && x + 3 < cols) {
            float4 v = *reinterpret_cast<const float4 *>(in + (size_t)y * cols + x);
            tile[ty][4 * tx] = v.x;
            tile[ty][4 * tx + 1] = v.y;
            tile[ty][4 * tx + 2] = v.z;
            tile[ty][4 * tx + 3] = v.w;
        } else {
            for (int j = 0; j < 4 && x + j < cols; j++)
                tile[ty][4 * tx + j] = in[(size_t)y * cols + x + j];
        }
    }
    __syncthreads();
    x = blockIdx.y * 32 + 4 * tx;
    y = blockIdx.x * 32 + ty;
    if (y < cols) {
        if ((rows & 3) == 0 && x + 3 < rows) {
            *reinterpret_cast<float4 *>(out + (size_t)y * rows + x) =
                make_float4(tile[4 * tx][ty], tile[4 * tx + 1][ty], tile[4 * tx + 2][ty], tile[4 * tx + 3][ty]);
        } else {
            for (int j = 0; j < 4 && x + j < rows; j++)
                out[(size_t)y * rows + x + j] = tile[4 * tx + j][ty];
        }
    }
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    transpose_vec<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(8, 32)>>>(in, out, rows, cols);
}
