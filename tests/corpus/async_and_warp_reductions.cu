// What fast kernels use beyond the basics, on both backends: cp.async through
// <cuda_pipeline.h> (with its zero fill), cooperative_groups::memcpy_async
// and wait, the __reduce_*_sync family and __match_all_sync, a device-side
// malloc, cudaMallocAsync and cudaDeviceGetLimit. The simulator has its own
// versions of each; the same file runs on a GPU, so the two must agree on
// every value checked here.
#include <cstdio>
#include <cstring>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

namespace cg = cooperative_groups;

static int failures;

static void
expect(bool ok, const char *what)
{
	if (!ok) {
		printf("FAILED: %s\n", what);
		failures++;
	}
}

static void
said(const char *what)
{
	cudaError_t e = cudaGetLastError();
	if (e != cudaSuccess) {
		printf("FAILED: %s: %s\n", what, cudaGetErrorString(e));
		failures++;
	}
}

// 64 floats through cp.async: 16 bytes per thread, the last thread's last 8 zero-filled
__global__ void pipeline_copy(const float *in, float *out)
{
	__shared__ __align__(16) float s[64];
	int t = threadIdx.x;
	__pipeline_memcpy_async(&s[4 * t], &in[4 * t], 16, t == 15 ? 8 : 0);
	__pipeline_commit();
	__pipeline_wait_prior(0);
	__syncthreads();
	out[t] = s[63 - t] + s[t];
}

// a block copies 100 ints with memcpy_async (a byte count), a warp 20 more (an element count)
__global__ void group_copy(const int *in, int *out)
{
	__shared__ int s[128];
	cg::thread_block block = cg::this_thread_block();
	cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
	cg::memcpy_async(block, s, in, sizeof(int) * 100);
	if (warp.meta_group_rank() == 1)
		cg::memcpy_async(warp, s + 100, (size_t)28, in + 100, (size_t)20);
	cg::wait(block);
	out[threadIdx.x] = s[127 - threadIdx.x < 120 ? 127 - threadIdx.x : 0];
}

__global__ void warp_reductions(unsigned *out)
{
	unsigned lane = threadIdx.x % 32;
	int pred = 0;
	out[0 * 32 + lane] = __reduce_add_sync(0xffffffffu, lane);
	out[1 * 32 + lane] = (unsigned)__reduce_min_sync(0xffffffffu, (int)lane - 5);
	out[2 * 32 + lane] = __reduce_max_sync(0xffffffffu, 0xf0000000u + lane);
	out[3 * 32 + lane] = __reduce_and_sync(0xffffffffu, ~(1u << lane));
	out[4 * 32 + lane] = __reduce_or_sync(lane < 16 ? 0x0000ffffu : 0xffff0000u, 1u << lane);
	out[5 * 32 + lane] = __reduce_xor_sync(0xffffffffu, lane);
	unsigned all = __match_all_sync(0xffffffffu, lane / 16, &pred);
	out[6 * 32 + lane] = all * 2 + pred;
	all = __match_all_sync(0xffffffffu, 7, &pred);
	out[7 * 32 + lane] = (all == 0xffffffffu) * 2 + pred;
}

__global__ void device_heap(int *out)
{
	int *scratch = (int *)malloc(4 * sizeof(int));
	if (!scratch) {
		out[threadIdx.x] = -1;
		return;
	}
	memset(scratch, 0, 4 * sizeof(int));
	for (int i = 0; i < 4; i++)
		scratch[i] += (int)threadIdx.x * i;
	out[threadIdx.x] = scratch[3];
	free(scratch);
}

int
main(void)
{
	float hf[64], *fin, *fout;
	int hi[128], *iin, *iout;
	unsigned hu[8 * 32], *u;

	for (int i = 0; i < 64; i++)
		hf[i] = (float)i;
	cudaMalloc(&fin, sizeof(hf));
	cudaMallocAsync(&fout, sizeof(hf), 0);
	cudaMemcpy(fin, hf, sizeof(hf), cudaMemcpyHostToDevice);
	pipeline_copy<<<1, 16>>>(fin, fout);
	said("pipeline_copy");
	cudaMemcpy(hf, fout, 16 * sizeof(float), cudaMemcpyDeviceToHost);
	expect(hf[0] == 0.0f + 0.0f, "the zero-filled bytes of cp.async");
	expect(hf[2] == 61.0f + 2.0f && hf[15] == 48.0f + 15.0f, "cp.async of 16 bytes a thread");
	cudaFreeAsync(fout, 0);

	for (int i = 0; i < 128; i++)
		hi[i] = 1000 + i;
	cudaMalloc(&iin, sizeof(hi));
	cudaMalloc(&iout, sizeof(hi));
	cudaMemcpy(iin, hi, sizeof(hi), cudaMemcpyHostToDevice);
	group_copy<<<1, 128>>>(iin, iout);
	said("group_copy");
	cudaMemcpy(hi, iout, sizeof(hi), cudaMemcpyDeviceToHost);
	expect(hi[8] == 1000 + 119 && hi[127] == 1000 + 0 && hi[30] == 1000 + 97,
	       "memcpy_async of a block and of a warp, then wait");

	cudaMalloc(&u, sizeof(hu));
	warp_reductions<<<1, 32>>>(u);
	said("warp_reductions");
	cudaMemcpy(hu, u, sizeof(hu), cudaMemcpyDeviceToHost);
	expect(hu[0 * 32 + 7] == 496, "__reduce_add_sync");
	expect((int)hu[1 * 32 + 7] == -5, "__reduce_min_sync over int");
	expect(hu[2 * 32 + 7] == 0xf000001fu, "__reduce_max_sync over unsigned");
	expect(hu[3 * 32 + 7] == 0, "__reduce_and_sync");
	expect(hu[4 * 32 + 7] == 0x0000ffffu && hu[4 * 32 + 20] == 0xffff0000u, "__reduce_or_sync over two masks");
	expect(hu[5 * 32 + 7] == 0, "__reduce_xor_sync");
	expect(hu[6 * 32 + 7] == 0 && hu[7 * 32 + 7] == 3, "__match_all_sync");

	device_heap<<<1, 32>>>(iout);
	said("device_heap");
	cudaMemcpy(hi, iout, 32 * sizeof(int), cudaMemcpyDeviceToHost);
	expect(hi[5] == 15 && hi[31] == 93, "device-side malloc, memset, free");

	size_t heap = 0;
	expect(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize) == cudaSuccess && heap > 0,
	       "cudaDeviceGetLimit(cudaLimitMallocHeapSize)");

	cudaError_t status = cudaDeviceSynchronize();
	expect(status == cudaSuccess, "no error from any launch");
	if (status != cudaSuccess)
		printf("%s\n", cudaGetErrorString(status));
	if (failures)
		return 1;
	printf("ok\n");
	return 0;
}
