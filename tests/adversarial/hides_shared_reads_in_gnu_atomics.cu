// exercise: transpose
// expect: performance
// message: bank conflicts
// sim-only
// The unpadded tile of hides_shared_reads_in_inline_asm.cu, its conflicting reads relaxed GNU atomic
// loads (__atomic_load_n) on the simulator alone: the instrumented file calls __tsan_atomic32_load for
// them, which the simulator counted as an atomic request and, on shared memory, as nothing, so the
// bank-conflict budget passed. In kernel code a GNU atomic is the plain load or store it stands for,
// counted as one: the 32-way conflict fails the budget.
#include "cudalings/transpose.h"
#ifdef __CUDASIM__
__device__ float READ(const float *p)
{
    unsigned u = __atomic_load_n((const unsigned *)p, __ATOMIC_RELAXED);
    float v;
    __builtin_memcpy(&v, &u, sizeof v);
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
