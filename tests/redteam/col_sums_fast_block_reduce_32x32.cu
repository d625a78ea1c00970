// exercise: col_sums
// expect: pass
// message: cases correct
// Legitimate and fast: blocks of 32 columns x 32 row groups (1024 threads);
// each thread walks every 32nd row of its column, then the 32 partial sums of
// a column meet in a padded shared tile and one warp adds them with
// shuffles. 512 blocks for 16384 columns: every multiprocessor busy without
// atomics. Threads past the last column stay for the barrier, idle.
#include "cudalings/col_sums.h"

#define COLS 32
#define GROUPS 32

__global__ void col_sums_tiled(const float *a, float *sums, int rows, int cols)
{
    __shared__ float part[GROUPS][COLS + 1];
    int col = blockIdx.x * COLS + threadIdx.x;
    float t = 0.0f;
    if (col < cols)
        for (int r = threadIdx.y; r < rows; r += GROUPS)
            t += a[(size_t)r * cols + col];
    part[threadIdx.y][threadIdx.x] = t;
    __syncthreads();
    // warp y adds column y's 32 partial sums: lane i holds group i
    float v = part[threadIdx.x][threadIdx.y];
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    int out = blockIdx.x * COLS + threadIdx.y;
    if (threadIdx.x == 0 && out < cols)
        sums[out] = v;
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    col_sums_tiled<<<(cols + COLS - 1) / COLS, dim3(COLS, GROUPS)>>>(a, sums, rows, cols);
}
