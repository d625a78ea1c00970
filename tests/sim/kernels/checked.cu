// Kernels compiled with the simulator's checks (sim.mk adds the
// instrumentation the grader gives a student's file): each wrapper runs one
// launch and hands back what cudasimTakeChecks saw.
#include "kernels.h"

static int
finish(struct cudasimChecks *out)
{
    int e = cudaDeviceSynchronize();
    cudasimTakeChecks(out);
    return e;
}

// n floats, and a guard with <=: the thread at i == n writes one past the end.
__global__ void guard_le(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        out[i] = 1.0f;
}

int sim_checked_guard_le(int n, struct cudasimChecks *out, unsigned long *alloc)
{
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    *alloc = (unsigned long)d;
    guard_le<<<(n + 64) / 64, 64>>>(d, n);
    int e = finish(out);
    cudaFree(d);
    return e;
}

// A reduction tree, with or without the barrier between its steps.
__global__ void tree(float *out, int with_barrier)
{
    __shared__ float partial[64];
    int t = threadIdx.x;
    partial[t] = (float)t;
    __syncthreads();
    for (int stride = 32; stride > 0; stride /= 2) {
        if (t < stride)
            partial[t] += partial[t + stride];
        if (with_barrier)
            __syncthreads();
    }
    if (t == 0)
        out[0] = partial[0];
}

int sim_checked_tree(int with_barrier, struct cudasimChecks *out)
{
    float *d;
    cudaMalloc(&d, sizeof(float));
    tree<<<1, 64>>>(d, with_barrier);
    int e = finish(out);
    cudaFree(d);
    return e;
}

// A tile whose halo (tile[0] and tile[33]) nobody loads, and one that atomics add to.
__global__ void no_halo(float *out)
{
    __shared__ float tile[34];
    int t = threadIdx.x;
    tile[t + 1] = (float)t;
    __syncthreads();
    out[t] = tile[t] + tile[t + 2];
}

__global__ void shared_counter(int *out)
{
    __shared__ int count;
    if (threadIdx.x == 0)
        count = 0;
    __syncthreads();
    atomicAdd(&count, 1);
    __syncthreads();
    if (threadIdx.x == 0)
        *out = count;
}

// A flag that a third of the threads, in both warps, set in one interval: to 1 each (one value, whichever
// write lands: no race) or each to its own number (a race, though nobody reads the word before the barrier).
__global__ void shared_flag(int *out, bool distinct)
{
    __shared__ int flag;
    int t = threadIdx.x;
    if (t == 0)
        flag = 0;
    __syncthreads();
    if (t % 3 == 0)
        flag = distinct ? t + 1 : 1;
    __syncthreads();
    if (t == 0)
        *out = flag != 0;
}

int sim_checked_shared(int which, struct cudasimChecks *out)
{
    void *d;
    cudaMalloc(&d, 64 * sizeof(float));
    if (which == 0)
        no_halo<<<1, 32>>>((float *)d);
    else if (which == 1)
        shared_counter<<<1, 32>>>((int *)d);
    else
        shared_flag<<<1, 64>>>((int *)d, which == 3);
    int e = finish(out);
    cudaFree(d);
    return e;
}

// The lesson's transposes: a 32x32 tile (bank conflicts on the way out) or 32x33.
template <int PAD>
__global__ void tile_transpose(const float *in, float *out, int n)
{
    __shared__ float tile[32][32 + PAD];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

int sim_checked_transpose(int pad, struct cudasimChecks *out)
{
    enum { N = 128 };
    float *in, *o;
    cudaMalloc(&in, N * N * sizeof(float));
    cudaMalloc(&o, N * N * sizeof(float));
    cudaMemset(in, 0, N * N * sizeof(float));
    if (pad)
        tile_transpose<1><<<dim3(N / 32, N / 32), dim3(32, 32)>>>(in, o, N);
    else
        tile_transpose<0><<<dim3(N / 32, N / 32), dim3(32, 32)>>>(in, o, N);
    int e = finish(out);
    cudaFree(in);
    cudaFree(o);
    return e;
}

// Host memory reached by a kernel through a pointer in a struct: a GPU's kernel cannot.
struct hidden { float *p; };
static float host_array[64];

__global__ void reads_through(hidden h, float *out)
{
    out[threadIdx.x] = h.p[threadIdx.x];
}

int sim_checked_host_memory(int which)
{
    float *d;
    hidden h = { which ? host_array : (float *)malloc(64 * sizeof(float)) };
    cudaMalloc(&d, 64 * sizeof(float));
    reads_through<<<1, 64>>>(h, d);
    int e = cudaDeviceSynchronize();
    cudaGetLastError();
    cudaFree(d);
    if (!which)
        free(h.p);
    return e;
}

// What a kernel may read besides cudaMalloc'd memory: __device__ and __constant__ variables,
// namespace-scope __shared__, a local table, a string literal, its arguments, its stack.
__device__ float dev_table[4] = { 1, 2, 3, 4 };
__constant__ float const_table[4] = { 10, 20, 30, 40 };
__shared__ float ns_shared[64];

__global__ void reads_what_it_may(float *out, float scale)
{
    const float local[4] = { 100, 200, 300, 400 };
    const char *text = "abcd";
    int i = threadIdx.x % 4, lookup[4];
    lookup[i] = i;
    ns_shared[threadIdx.x] = dev_table[lookup[i]];
    __syncthreads();
    out[threadIdx.x] = ns_shared[threadIdx.x] + const_table[i] + local[i] + text[i] * scale;
}

int sim_checked_reachable(float *first)
{
    float *d;
    cudaMalloc(&d, 64 * sizeof(float));
    reads_what_it_may<<<1, 64>>>(d, 0.5f);
    int e = cudaDeviceSynchronize();
    cudaMemcpy(first, d, sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d);
    return e;
}

// The barrier inside an if that half the threads skip, going on to use memory below it.
__global__ void skips_barrier(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = 1.0f;
    if (threadIdx.x < 32)
        __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
}

int sim_checked_skips_barrier(void)
{
    float *d;
    cudaMalloc(&d, 64 * sizeof(float));
    skips_barrier<<<1, 64>>>(d);
    int e = cudaDeviceSynchronize();
    cudaGetLastError();
    cudaFree(d);
    return e;
}

// Every block adds its part to one word without an atomic: blocks run one
// after another here, so both orders sum alike; a GPU loses updates.
__device__ float dev_total;

__global__ void plain_add_kernel(float *sum, int *lock, int *count, float *parts, int how)
{
	if (how == 0) {
		if (threadIdx.x == 0)
			sum[0] += 1.0f + blockIdx.x;	// MARK:plain_update
	} else if (how == 1 && threadIdx.x == 0) {
		// a lock: the update is published by the fence before the release
		while (atomicCAS(lock, 0, 1))
			;
		sum[0] += 1.0f + blockIdx.x;
		__threadfence();
		atomicExch(lock, 0);
	} else if (how == 2 && threadIdx.x == 0) {
		// the last block to finish adds the others' parts, in place
		parts[blockIdx.x] = 1.0f + blockIdx.x;
		__threadfence();
		if (atomicAdd(count, 1) == (int)gridDim.x - 1)
			for (int b = 1; b < (int)gridDim.x; b++)
				parts[0] += parts[b];
	} else if (how == 3 && threadIdx.x == 0) {
		dev_total += 1.0f;	// MARK:plain_device_update
	} else if (how == 4 && threadIdx.x == 0) {
		// a fence after the store, but no atomic before the read: still a lost update
		sum[0] += 1.0f + blockIdx.x;	// MARK:fenced_update
		__threadfence();
	}
}

int
sim_blocks_update_one_word(int how)
{
	float *sum, *parts;
	int *lock, *count;

	cudaMalloc(&sum, sizeof(float));
	cudaMalloc(&parts, 8 * sizeof(float));
	cudaMalloc(&lock, sizeof(int));
	cudaMalloc(&count, sizeof(int));
	cudaMemset(sum, 0, sizeof(float));
	cudaMemset(lock, 0, sizeof(int));
	cudaMemset(count, 0, sizeof(int));
	plain_add_kernel<<<8, 32>>>(sum, lock, count, parts, how);
	struct cudasimChecks checks;
	int e = finish(&checks);
	cudaFree(sum);
	cudaFree(parts);
	cudaFree(lock);
	cudaFree(count);
	return e;
}

// An int index below zero added to threadIdx.x: unsigned, so element -3 is element 2^32 - 3.
__global__ void wrapped_index(const float *in, float *out)
{
    int start = 0;
    out[threadIdx.x] = in[start - 3 + threadIdx.x];
}

int sim_checked_wrapped_index(struct cudasimChecks *out)
{
    float *in, *res;
    cudaMalloc(&in, 4 * sizeof(float));
    cudaMalloc(&res, 4 * sizeof(float));
    wrapped_index<<<1, 4>>>(in, res);
    int e = finish(out);
    cudaFree(in);
    cudaFree(res);
    return e;
}

// Stores by atomics, cudasim.h's and GNU's builtin (which nvcc refuses in a kernel, g++ takes): each a
// request, counted as a plain store is.
__global__ void atomic_stores(unsigned *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicExch(&out[i], i);
    __atomic_store_n(&out[64 + i], i, __ATOMIC_RELAXED);
}

int sim_checked_atomic_stores(struct cudasimChecks *out)
{
    unsigned *d;
    cudaMalloc(&d, 128 * sizeof(unsigned));
    atomic_stores<<<2, 32>>>(d);
    int e = finish(out);
    cudaFree(d);
    return e;
}

// __device__ variables whose declarators hold parentheses: pointers to __device__ functions, an array of
// them, and one whose type is a decltype; each must live in device memory, as on a GPU, where the checks
// let kernel code read it (a host variable's read ends the launch as an illegal address).
__device__ int twice(int x) { return 2 * x; }
__device__ int negate(int x) { return -x; }
__device__ int (*scale)(int) = twice;
__device__ int (*steps[2])(int) = { twice, negate };
__device__ decltype(&twice) again = twice;

__global__ void through_pointers(int *out)
{
    out[0] = steps[1](scale(again(5)));
}

int sim_checked_device_function_pointers(int *value)
{
    int *d;
    cudaMalloc(&d, sizeof(int));
    through_pointers<<<1, 1>>>(d);
    int e = cudaDeviceSynchronize();
    cudaMemcpy(value, d, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d);
    return e;
}
