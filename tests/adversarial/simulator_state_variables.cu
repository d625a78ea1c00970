// exercise: matmul
// expect: correctness
// message: use one shared-memory word between two barriers
// sim-only
// Under #ifdef __CUDASIM__, writes the simulator's own variables that its
// header exposes (the block epoch, the atomic-tracking switch) to blind its
// checks, then races on shared memory: a missing barrier is still found.
#include "cudalings/matmul.h"

#define TILE 16
__global__ void mm(const float *a, const float *b, float *c, int m, int k, int n)
{
    __shared__ float at[TILE][TILE], bt[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float s = 0;
    for (int t = 0; t < k; t += TILE) {
        at[threadIdx.y][threadIdx.x] = row < m && t + threadIdx.x < k ? a[row * k + t + threadIdx.x] : 0;
        bt[threadIdx.y][threadIdx.x] = t + threadIdx.y < k && col < n ? b[(t + threadIdx.y) * n + col] : 0;
        __syncthreads();
        for (int i = 0; i < TILE; i++)
            s += at[threadIdx.y][i] * bt[i][threadIdx.x];
    }
    if (row < m && col < n)
        c[row * n + col] = s;
}

void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
#ifdef __CUDASIM__
    cudasim_tracking = 0;
    *(unsigned *)&cudasim_block_epoch = 7;
#endif
    mm<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), dim3(TILE, TILE)>>>(a, b, c, m, k, n);
}
