/*
 * Opening the GPU before a process enters its sandbox (GPU only): the
 * measuring runner and the capture process both open the context, its
 * threads and the files the driver opens lazily while they may, before the
 * system-call filter would refuse them; and, for the point's process, the
 * profiler's own first launch.
 */
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include "harness/gpu_open.h"
#include "harness/protocol.h"

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

/* A name of the harness's, which ncu's log shows as it is (extern "C": no parameters after it). */
extern "C" __global__ void
PROTO_WARM_UP_KERNEL(unsigned char *p)
{
	p[threadIdx.x] = 1;
}

int
gpu_open_profile_warm_up(void)
{
	unsigned char *scratch = NULL;
	if (cudaMalloc(&scratch, 32) != cudaSuccess) {
		cudaGetLastError();
		return -1;
	}
	cudaProfilerStart();
	PROTO_WARM_UP_KERNEL<<<1, 32>>>(scratch);
	cudaError_t e = cudaDeviceSynchronize();
	cudaProfilerStop();
	cudaFree(scratch);
	cudaGetLastError();
	return e == cudaSuccess ? 0 : -1;
}
