// exercise: tile_transpose
// expect: pass
// message: cases correct
// Legitimate and fast: float4 loads and stores (each thread moves four
// neighbouring elements of a row), 8 x 32 threads per 32 x 32 tile, a
// padded tile; scalar loads and stores on edge tiles and when a width is not
// a multiple of four. The shared-memory accesses stay conflict-free: four
// rows of eight threads fall in 32 different banks.
#include "cudalings/tile_transpose.h"

__global__ void transpose4(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[32][33];
    int tx = threadIdx.x, ty = threadIdx.y; // 8 x 32
    int x = blockIdx.x * 32 + 4 * tx, y = blockIdx.y * 32 + ty;
    if (y < rows) {
        if ((cols & 3) == 0 && x + 3 < cols) {
            float4 v = *reinterpret_cast<const float4 *>(&in[(size_t)y * cols + x]);
            tile[ty][4 * tx] = v.x;
            tile[ty][4 * tx + 1] = v.y;
            tile[ty][4 * tx + 2] = v.z;
            tile[ty][4 * tx + 3] = v.w;
        } else {
            for (int j = 0; j < 4; j++)
                if (x + j < cols)
                    tile[ty][4 * tx + j] = in[(size_t)y * cols + x + j];
        }
    }
    __syncthreads();
    x = blockIdx.y * 32 + 4 * tx; // along a row of out (length rows)
    y = blockIdx.x * 32 + ty;     // a row of out
    if (y < cols) {
        if ((rows & 3) == 0 && x + 3 < rows) {
            float4 v = make_float4(tile[4 * tx][ty], tile[4 * tx + 1][ty], tile[4 * tx + 2][ty], tile[4 * tx + 3][ty]);
            *reinterpret_cast<float4 *>(&out[(size_t)y * rows + x]) = v;
        } else {
            for (int j = 0; j < 4; j++)
                if (x + j < rows)
                    out[(size_t)y * rows + x + j] = tile[4 * tx + j][ty];
        }
    }
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    transpose4<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(8, 32)>>>(in, out, rows, cols);
}
