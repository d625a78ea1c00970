// exercise: tile_transpose
// expect: pass
// message: cases correct
// Legitimate without shared memory: one warp per 32 x 32 square. Lane l
// loads column l of the square's 32 rows (coalesced: a warp reads one row),
// and the transposing happens in registers through warp shuffles, so the
// writes are coalesced too (a warp writes one row of out). It meets the
// exercise's budgets another way than the tile the lesson teaches: both
// global sides take 4 sectors per request, and there is no shared memory to
// conflict in.
#include "cudalings/tile_transpose.h"

#define TILE 32

__global__ void tile_transpose_shuffles(const float *in, float *out, int rows, int cols)
{
    int bx = blockIdx.x * TILE, by = blockIdx.y * TILE, lane = threadIdx.x;
    float v[TILE];
    // v[r]: in[by + r][bx + lane]
#pragma unroll
    for (int r = 0; r < TILE; r++)
        v[r] = by + r < rows && bx + lane < cols ? in[(size_t)(by + r) * cols + bx + lane] : 0.0f;
    // row bx + c of out, columns by..by+31: lane l needs in[by + l][bx + c], which is v[l] of lane c
#pragma unroll
    for (int c = 0; c < TILE; c++) {
        float mine = 0.0f;
#pragma unroll
        for (int r = 0; r < TILE; r++) {
            float s = __shfl_sync(0xffffffffu, v[r], c);
            if (r == lane)
                mine = s;
        }
        if (bx + c < cols && by + lane < rows)
            out[(size_t)(bx + c) * rows + by + lane] = mine;
    }
}

void tile_transpose_launch(const float *in, float *out, int rows, int cols)
{
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    tile_transpose_shuffles<<<grid, TILE>>>(in, out, rows, cols);
}
