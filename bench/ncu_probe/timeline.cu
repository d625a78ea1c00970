// Where the seconds of a launch profiled by Nsight Compute go (bench/ncu_point_cost.sh): the program
// stamps each step (wall clock, seconds since the epoch) on its stdout, which ncu passes on, so the
// script can set them beside ncu's own start and end. Three profiled launches of a transpose, each in
// its own cudaProfilerStart/Stop: a kernel's first, the same kernel again, and another kernel's first,
// which tell a cost once per process from one per kernel and one per launch.
//   timeline [N [warm [quick|wait]]]   N x N floats (4096); warm: a one-block kernel profiled first, as
//                                 a process could before its go; quick: _exit at the end, no teardown;
//                                 wait: then a byte read on stdin, as the point's process waits for its
//                                 go, once, and how the read ended (a signal's interruption, say)
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>

#define T 32

static void
mark(const char *what)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	printf("@ %.6f %s\n", (double)t.tv_sec + t.tv_nsec / 1e9, what);
	fflush(stdout);
}

__global__ void
warm(unsigned char *p)
{
	p[threadIdx.x] = 0;
}

__global__ void
padded(const float *in, float *out, int n)
{
	__shared__ float tile[T][T + 1];
	int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
	if (x < n && y < n)
		tile[threadIdx.y][threadIdx.x] = in[(size_t)y * n + x];
	__syncthreads();
	x = blockIdx.y * T + threadIdx.x;
	y = blockIdx.x * T + threadIdx.y;
	if (x < n && y < n)
		out[(size_t)y * n + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void
naive_turned(const float *in, float *out, int n)
{
	int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
	if (x < n && y < n)
		out[(size_t)y * n + x] = in[(size_t)x * n + y];
}

int
main(int argc, char **argv)
{
	mark("start");
	int n = argc > 1 ? atoi(argv[1]) : 4096;
	bool warm_first = argc > 2 && !strcmp(argv[2], "warm");
	bool quick = argc > 3 && !strcmp(argv[3], "quick"), wait = argc > 3 && !strcmp(argv[3], "wait");
	size_t bytes = (size_t)n * n * sizeof(float);
	cudaFree(0);
	mark("context");
	float *in, *out;
	unsigned char *scratch;
	cudaMalloc(&in, bytes);
	cudaMalloc(&out, bytes);
	cudaMalloc(&scratch, 64);
	cudaMemset(in, 0, bytes);
	cudaDeviceSynchronize();
	mark("buffers");
	if (warm_first) {
		cudaProfilerStart();
		warm<<<1, 32>>>(scratch);
		cudaDeviceSynchronize();
		cudaProfilerStop();
		mark("warm kernel profiled");
	}
	if (wait) {
		char go, what[64];
		ssize_t n = read(0, &go, 1);
		snprintf(what, sizeof(what), "read %zd%s", n, n < 0 && errno == EINTR ? " EINTR" : "");
		mark(what);
	}
	dim3 grid((n + T - 1) / T, (n + T - 1) / T), block(T, T);
	const char *names[] = { "first launch profiled", "same kernel again", "another kernel's first" };
	for (int i = 0; i < 3; i++) {
		cudaProfilerStart();
		if (i < 2)
			padded<<<grid, block>>>(in, out, n);
		else
			naive_turned<<<grid, block>>>(in, out, n);
		cudaDeviceSynchronize();
		cudaProfilerStop();
		mark(names[i]);
	}
	cudaError_t e = cudaGetLastError();
	mark(e == cudaSuccess ? "end" : cudaGetErrorString(e));
	if (quick)
		_exit(e != cudaSuccess);
	return e != cudaSuccess;
}
