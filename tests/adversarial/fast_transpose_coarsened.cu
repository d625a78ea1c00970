// exercise: transpose
// expect: pass
// message: cases correct
// Legitimate and fast: 32x8 threads move a 32x32 tile, four elements each,
// through a padded tile (NVIDIA's transpose write-up).
#include "cudalings/transpose.h"
#define TILE 32
#define ROWS 8
__global__ void transpose_coarse(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
void transpose_launch(const float *in, float *out, int rows, int cols)
{
    transpose_coarse<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, ROWS)>>>(in, out, rows, cols);
}
