// exercise: transpose
// expect: compile
// message: among its instructions
// sim-only
// The unpadded tile of hides_shared_reads_in_inline_asm.cu, its conflicting reads made, on the
// simulator alone, by five bytes of x86 (movss (%rdi), %xmm0; ret) kept in an array that the section
// attribute puts among the instructions, and called through a cast pointer: no asm statement, no
// builtin, machine code that no compiler made, so no instrumentation, and the bank-conflict budget
// passed. A variable's symbol in a section that holds code is refused before linking.
#include "cudalings/transpose.h"
#ifdef __CUDASIM__
__attribute__((section(".text"))) static const unsigned char code[] = { 0xf3, 0x0f, 0x10, 0x07, 0xc3 };
#define READ(p) ((float (*)(const float *))(const void *)code)(p)
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
