// exercise: transpose
// expect: compile
// message: __builtin_ia32_maskloadps
// sim-only
// The unpadded tile of hides_shared_reads_in_inline_asm.cu, its conflicting reads an AVX masked load
// (_mm_maskload_ps, in a function compiled for AVX by a target attribute) on the simulator alone: g++
// expands the target's builtins after its instrumentation has run, so the load passed unseen and the
// bank-conflict budget passed. The compile's own dump names every builtin its functions call:
// refused before linking.
#include "cudalings/transpose.h"
#ifdef __CUDASIM__
#include <immintrin.h>
__device__ __attribute__((target("avx"))) float READ(const float *p)
{
    return _mm_cvtss_f32(_mm_maskload_ps(p, _mm_set_epi32(0, 0, 0, -1)));
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
