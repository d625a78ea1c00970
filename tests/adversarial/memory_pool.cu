// exercise: matmul_naive
// expect: compile
// message: cudaMemPool
// A memory pool whose location is the host: memory a kernel and the host share.
#include "cudalings/matmul_naive.h"

__global__ void mm(const float *a, const float *b, float *c, int m, int k, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        float s = 0;
        for (int i = 0; i < k; i++)
            s += a[row * k + i] * b[i * n + col];
        c[row * n + col] = s;
    }
}

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    cudaMemPool_t pool;
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeHost;
    cudaMemPoolCreate(&pool, &props);
    float *scratch;
    cudaMallocFromPoolAsync((void **)&scratch, 64, pool, 0);
    mm<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(a, b, c, m, k, n);
}
