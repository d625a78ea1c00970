// The kernels of the simulator benchmark (bench/sim/bench.py runs this and
// Numba's CUDA simulator on the same work). Built with the grader's recipe.
//
//   bench-sim transpose N [reps]   conflict-free 32x33 tiled transpose of N x N
//   bench-sim matmul N [reps]      16x16 tiled matmul, N x N x N
//   bench-sim barriers             barrier crossings per second on one core
//
// Prints "ms=<median milliseconds of one launch> ok=<0|1>".
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>

#define TILE 32
#define MM 16

__global__ void transpose(const float *in, float *out, int n)
{
	__shared__ float tile[TILE][TILE + 1];
	int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;

	if (x < n && y < n)
		tile[threadIdx.y][threadIdx.x] = in[y * n + x];
	__syncthreads();
	x = blockIdx.y * TILE + threadIdx.x;
	y = blockIdx.x * TILE + threadIdx.y;
	if (x < n && y < n)
		out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void matmul(const float *a, const float *b, float *c, int n)
{
	__shared__ float sa[MM][MM], sb[MM][MM];
	int row = blockIdx.y * MM + threadIdx.y, col = blockIdx.x * MM + threadIdx.x;
	float acc = 0.0f;

	for (int t = 0; t < (n + MM - 1) / MM; t++) {
		int ac = t * MM + threadIdx.x, br = t * MM + threadIdx.y;

		sa[threadIdx.y][threadIdx.x] = row < n && ac < n ? a[row * n + ac] : 0.0f;
		sb[threadIdx.y][threadIdx.x] = br < n && col < n ? b[br * n + col] : 0.0f;
		__syncthreads();
		for (int k = 0; k < MM; k++)
			acc += sa[threadIdx.y][k] * sb[k][threadIdx.x];
		__syncthreads();
	}
	if (row < n && col < n)
		c[row * n + col] = acc;
}

__global__ void barrier_loop(int *out, int rounds)
{
	int acc = 0;

	for (int r = 0; r < rounds; r++) {
		acc += r;
		__syncthreads();
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int
bench_transpose(int n, int reps, double *ms)
{
	size_t bytes = (size_t)n * n * sizeof(float);
	float *h = (float *)malloc(bytes), *back = (float *)malloc(bytes), *din, *dout;
	double t[64];
	int ok = 1;

	for (int i = 0; i < n * n; i++)
		h[i] = (float)i;
	cudaMalloc(&din, bytes);
	cudaMalloc(&dout, bytes);
	cudaMemcpy(din, h, bytes, cudaMemcpyHostToDevice);
	dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
	for (int r = 0; r < reps; r++) {
		double t0 = now_ms();

		transpose<<<grid, block>>>(din, dout, n);
		cudaDeviceSynchronize();
		t[r] = now_ms() - t0;
	}
	cudaMemcpy(back, dout, bytes, cudaMemcpyDeviceToHost);
	for (int r = 0; r < n; r++)
		for (int c = 0; c < n; c++)
			ok &= back[c * n + r] == h[r * n + c];
	*ms = median(t, reps);
	return ok && cudaGetLastError() == cudaSuccess;
}

static int
bench_matmul(int n, int reps, double *ms)
{
	size_t bytes = (size_t)n * n * sizeof(float);
	float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
	float *da, *db, *dc;
	double t[64];
	int ok = 1;

	for (int i = 0; i < n * n; i++) {
		a[i] = (float)(i % 7) - 3.0f;
		b[i] = (float)(i % 5) * 0.5f;
	}
	cudaMalloc(&da, bytes);
	cudaMalloc(&db, bytes);
	cudaMalloc(&dc, bytes);
	cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
	cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
	dim3 block(MM, MM), grid((n + MM - 1) / MM, (n + MM - 1) / MM);
	for (int r = 0; r < reps; r++) {
		double t0 = now_ms();

		matmul<<<grid, block>>>(da, db, dc, n);
		cudaDeviceSynchronize();
		t[r] = now_ms() - t0;
	}
	cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double want = 0;

			for (int k = 0; k < n; k++)
				want += (double)a[i * n + k] * b[k * n + j];
			ok &= fabs(want - c[i * n + j]) < 1e-3 * (1 + fabs(want));
		}
	*ms = median(t, reps);
	return ok && cudaGetLastError() == cudaSuccess;
}

static int
bench_barriers(double *per_s)
{
	int blocks = 64, threads = 256, rounds = 500, *d;
	double t0;

	cudaMalloc(&d, sizeof(int) * blocks * threads);
	t0 = now_ms();
	barrier_loop<<<blocks, threads>>>(d, rounds);
	cudaDeviceSynchronize();
	*per_s = (double)blocks * threads * rounds / ((now_ms() - t0) / 1e3);
	return cudaGetLastError() == cudaSuccess;
}

int
main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 128, reps = argc > 3 ? atoi(argv[3]) : 9, ok;
	double v;

	if (reps < 1 || reps > 64)
		reps = 9;
	if (argc > 1 && !strcmp(argv[1], "transpose"))
		ok = bench_transpose(n, reps, &v);
	else if (argc > 1 && !strcmp(argv[1], "matmul"))
		ok = bench_matmul(n, reps, &v);
	else if (argc > 1 && !strcmp(argv[1], "barriers")) {
		ok = bench_barriers(&v);
		printf("per_s=%.0f ok=%d\n", v, ok);
		return !ok;
	} else {
		fprintf(stderr, "usage: bench-sim transpose|matmul N [reps] | bench-sim barriers\n");
		return 2;
	}
	printf("ms=%.3f ok=%d\n", v, ok);
	if (!ok)
		fprintf(stderr, "bench-sim: %s\n", cudasimLastErrorDetail());
	return !ok;
}
