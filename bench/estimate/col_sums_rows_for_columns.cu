// exercise: col_sums
// A mistake for bench/estimate.py: each thread walks its column's elements
// as if they were a row's, the indices transposed (a[col * rows + r] read as
// the matrix's transpose): right only because the check's matrix is read
// through the same mapping. Here, correctly: a thread per column, but its
// warp's lanes take columns a row apart by reading element (col, r) of the
// column-major view, a[r * cols + col] with col = t / 32 + (t % 32) * (cols / 32).
// Not measured on a GPU; must be estimated slower than the threshold.
#include "cudalings/col_sums.h"

__global__ void col_sums_rows(const float *a, float *sums, int rows, int cols)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= cols)
        return;
    // a warp sums 32 neighbouring columns, but each lane walks down its own
    // column one row at a time while its neighbours are a whole row away:
    // the lanes of one load are `cols` floats apart, as a row sum's would be
    int lane = t % 32, group = t / 32;
    int col = group * 32 + lane;
    float sum = 0.0f;
    for (int r = 0; r < rows; r++) {
        int rr = (r + lane) % rows; // lanes start on different rows: one row apart
        sum += a[(size_t)rr * cols + col];
    }
    sums[col] = sum;
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    int threads = 256;
    col_sums_rows<<<(cols + threads - 1) / threads, threads>>>(a, sums, rows, cols);
}
