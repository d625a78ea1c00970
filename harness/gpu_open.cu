/*
 * Opening the GPU before a process enters its sandbox (GPU only): the
 * measuring runner and the capture process both open the context, its
 * threads and the files the driver opens lazily while they may, before the
 * system-call filter would refuse them.
 */
#include <cuda_runtime.h>

#include "gpu_open.h"

__global__ static void
gpu_open_touch(unsigned char *p)
{
	p[threadIdx.x] = 0;
}

void
gpu_open_before_filter(void)
{
	/* a launch, an allocation, a memset, events and a pooled allocation, each once */
	void *scratch = NULL;
	cudaEvent_t e;
	if (cudaMalloc(&scratch, 4096) == cudaSuccess) {
		gpu_open_touch<<<1, 32>>>((unsigned char *)scratch);
		cudaMemsetAsync(scratch, 0, 4096);
		cudaEventCreate(&e);
		cudaEventRecord(e);
		cudaEventSynchronize(e);
		cudaEventDestroy(e);
		/* the stream-ordered allocator's pool: the driver opens a device file for it at its first use
		   (H100, CUDA 13), which the filter would refuse a cudaMallocAsync later */
		void *pooled = NULL;
		if (cudaMallocAsync(&pooled, 4096, 0) == cudaSuccess)
			cudaFreeAsync(pooled, 0);
		cudaDeviceSynchronize();
		cudaFree(scratch);
	}
	cudaGetLastError();
}
