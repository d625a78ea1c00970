// CUB's block and warp reductions as the simulator gives them (sim/include/cub/);
// tests/sim/libraries.c checks what this computes against what CUB computes on a GPU.
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include "kernels.h"

enum { X = 16, Y = 6, THREADS = X * Y, LOGICAL = 16 };

__global__ void cub_reductions(int *out)
{
	typedef cub::BlockReduce<int, X, cub::BLOCK_REDUCE_WARP_REDUCTIONS, Y> BlockReduce;
	typedef cub::WarpReduce<int, LOGICAL> WarpReduce;
	__shared__ typename BlockReduce::TempStorage temp;
	__shared__ typename WarpReduce::TempStorage warp_temp[THREADS / LOGICAL];
	int tid = threadIdx.y * X + threadIdx.x, v = tid + 1;

	int all = BlockReduce(temp).Sum(v);
	__syncthreads();
	int some = BlockReduce(temp).Sum(v, 50);
	int most = BlockReduce().Reduce(v, cub::Max());
	int in_warp = WarpReduce(warp_temp[tid / LOGICAL]).Sum(v, 10);
	if (tid == 0) {
		out[0] = all;
		out[1] = some;
		out[2] = most;
	}
	if (tid % LOGICAL == 0)
		out[3 + tid / LOGICAL] = in_warp;
}

extern "C" int
sim_cub(int *out)
{
	int *d;

	cudaMalloc(&d, sizeof(int) * SIM_CUB_OUT);
	cub_reductions<<<1, dim3(X, Y)>>>(d);
	cudaMemcpy(out, d, sizeof(int) * SIM_CUB_OUT, cudaMemcpyDeviceToHost);
	cudaFree(d);
	return cudaGetLastError();
}
