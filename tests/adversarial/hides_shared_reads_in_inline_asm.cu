// exercise: transpose
// expect: compile
// message: uses inline assembly
// sim-only
// The unpadded 32 x 32 tile (a 32-way bank conflict on every read of a column), whose conflicting
// shared reads are, on the simulator alone, an x86 load in an asm statement: the instrumentation never
// sees it, so the simulator counted no shared load and the bank-conflict budget passed a kernel that
// fails it on a GPU. The asm keyword is pasted together by the preprocessor, out of any source scan's
// sight; g++ marks every asm statement in its output (#APP), whatever spelt it, and the simulator
// refuses the file before linking.
#include "cudalings/transpose.h"
#ifdef __CUDASIM__
#define CAT(a, b) a##b
__device__ float READ(const float *p)
{
    float v;
    CAT(__as, m__) volatile("movss (%1), %0" : "=x"(v) : "r"(p));
    return v;
}
#else
#define READ(p) (*(p))
#endif

__global__ void transpose_conflicts(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][32];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = READ(&tile[threadIdx.x][threadIdx.y]);
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    transpose_conflicts<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 32)>>>(in, out, rows, cols);
}
