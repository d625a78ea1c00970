// exercise: transpose
// expect: compile
// message: uses inline assembly
// sim-only
// The unpadded tile of hides_shared_reads_in_inline_asm.cu, its conflicting reads made by a function
// written in a file-scope asm statement (no asm in any function, so no compiled function holds it):
// a call to it leaves the instrumented code for machine code the simulator never sees. g++ marks a
// file-scope asm statement's text as it marks any other (#APP): refused before linking.
#include "cudalings/transpose.h"
#ifdef __CUDASIM__
asm(".text\n.globl cheat_load\n.type cheat_load, @function\ncheat_load:\n\tmovss (%rdi), %xmm0\n\tret\n");
extern "C" float cheat_load(const float *p);
#define READ(p) cheat_load(p)
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
