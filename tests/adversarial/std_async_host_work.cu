// exercise: matmul
// expect: compile
// message: host threads
// Runs host work on another thread through std::async.
#include <future>
#include "cudalings/matmul.h"

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

static int spin() { volatile int x = 0; for (int i = 0; i < 1000; i++) x += i; return x; }

void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    auto f = std::async(std::launch::async, spin);
    mm<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(a, b, c, m, k, n);
    f.get();
}
