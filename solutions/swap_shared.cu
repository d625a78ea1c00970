/*
 * swap_shared (demo) — a block reverses its piece of a vector through shared
 * memory. The vector is cut into pieces of 256 elements (the last may be
 * shorter); each piece is written out back to front:
 *     out[start + j] = in[start + len - 1 - j]
 * Each thread puts one element in the shared array, the block waits at
 * __syncthreads(), and then each thread takes the element another thread put
 * there. Run it beside its variants: cudalings run swap_shared. Lesson: slides/swap_shared.md
 */
#include "cudalings/swap_shared.h"

#define PIECE 256 // the block size and the length of a piece: part of the contract

__global__ void swap_shared_kernel(const float *in, float *out, int n)
{
    __shared__ float piece[PIECE];

    size_t start = (size_t)blockIdx.x * PIECE;
    int len = n - start < PIECE ? (int)(n - start) : PIECE;
    int j = threadIdx.x;

    if (j < len)
        piece[j] = in[start + j]; // global -> shared, in order
    __syncthreads();              // every element of the piece is in place before anyone reads
    if (j < len)
        out[start + j] = piece[len - 1 - j]; // shared -> global, written by the thread at the mirror place
}

void swap_shared_launch(const float *in, float *out, int n)
{
    int blocks = (n + PIECE - 1) / PIECE;
    swap_shared_kernel<<<blocks, PIECE>>>(in, out, n);
}
