// variant: the shared array sized at launch (extern __shared__ and the third <<<>>> argument), as Numba's cuda.shared.array(0, ...) does
#include "cudalings/swap_shared.h"

__global__ void swap_dynamic(const float *in, float *out, int n)
{
    extern __shared__ float piece[]; // as many bytes as the launch asks for

    size_t start = (size_t)blockIdx.x * blockDim.x;
    int len = n - start < blockDim.x ? (int)(n - start) : (int)blockDim.x;
    int j = threadIdx.x;

    if (j < len)
        piece[j] = in[start + j];
    __syncthreads();
    if (j < len)
        out[start + j] = piece[len - 1 - j];
}

void swap_shared_launch(const float *in, float *out, int n)
{
    int threads = 256; // the piece length of the contract
    swap_dynamic<<<(n + threads - 1) / threads, threads, threads * sizeof(float)>>>(in, out, n);
}
