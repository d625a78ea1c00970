// Valid CUDA syntax that a rewriter of <<< >>> can get wrong. Every construct
// here compiles with nvcc; tests/corpus/run.sh builds the file with nvcc where
// it is installed (and runs it where there is a GPU) and on the simulator, and
// the program checks its own results: exit 0 and "ok" when all agree.
#include <cstdio>
#include <cstdint>
#include <utility>

#define BLOCK (1 << 6)
#define SHIFTED(n) ((n) >> 1)

static int failures;

static void
expect(bool ok, const char *what)
{
	if (!ok) {
		printf("FAILED: %s\n", what);
		failures++;
	}
}

// << and >> in the size of a __shared__ array, and a size from a template.
__global__ void shifted_sizes(int *out)
{
	__shared__ int a[1 << 5];
	__shared__ int b[(256 >> 3) + 0];
	__shared__ int c[BLOCK >> 1][SHIFTED(4)];

	int t = threadIdx.x;
	a[t] = t;
	b[t] = 2 * t;
	c[t][t & 1] = 3 * t;
	__syncthreads();
	out[t] = a[31 - t] + b[t] + c[t][t & 1];
}

template <int N>
struct sized {
	static constexpr int value = N;
};

template <typename T, int N = (64 >> 1)>
__global__ void templated_size(T *out)
{
	__shared__ T tile[sized<((N << 1) >> 1)>::value];

	tile[threadIdx.x] = (T)threadIdx.x;
	__syncthreads();
	out[threadIdx.x] = tile[N - 1 - threadIdx.x];
}

// Attributes in the places nvcc accepts them.
__global__ void __launch_bounds__(128, 1) bounded(int *__restrict__ out)
{
	out[threadIdx.x] = 1;
}

template <int THREADS>
__global__ void __launch_bounds__(THREADS) bounded_by_template(int *out)
{
	out[threadIdx.x] = THREADS;
}

[[maybe_unused]] static __device__ __noinline__ int
twice(int v)
{
	return 2 * v;
}

__device__ __forceinline__ int
thrice(int v)
{
	return 3 * v;
}

__host__ __device__ constexpr int
square(int v)
{
	return v * v;
}

__global__ void attributed(int *out)
{
	__shared__ __align__(16) float aligned[4];
	alignas(8) int local[2] = { twice(threadIdx.x), thrice(threadIdx.x) };

	if (threadIdx.x < 4)
		aligned[threadIdx.x] = 1.0f;
	__syncthreads();
	out[threadIdx.x] = local[0] + local[1] + square(2) + (int)aligned[threadIdx.x & 3];
}

__constant__ int coefficients[4];

__global__ void constant_memory(int *out)
{
	out[threadIdx.x] = coefficients[threadIdx.x & 3];
}

namespace outer {
namespace inner {
__global__ void nested(int *out, int v)
{
	out[threadIdx.x] = v;
}
}
}

struct point {
	int x, y;
	__host__ __device__ point operator<<(int s) const { return { x << s, y << s }; }
};

__global__ void by_value(int *out, point p)
{
	point q = p << 1;
	out[0] = q.x;
	out[1] = q.y;
}

// A launch inside a function template, with the kernel's arguments deduced.
template <typename T>
void
launch_templated(T *out)
{
	templated_size<T><<<1, 32>>>(out);
}

template <typename Kernel, typename... Args>
void
launch_any(Kernel kernel, dim3 grid, dim3 block, Args... args)
{
	kernel<<<grid, block>>>(args...);
}

#define LAUNCH(kernel, threads, ...) kernel<<<1, (threads)>>>(__VA_ARGS__)
#define LAUNCH_CONFIG(kernel, grid, block, ...)	\
	do {						\
		kernel<<<grid, block>>>(__VA_ARGS__);	\
	} while (0)

template <int N>
struct holder {
	template <typename U>
	struct pair {
		U first[N];
	};
};

__global__ void nested_templates(int *out)
{
	holder<2>::pair<holder<1>::pair<int>> p;	// >> closing two template lists

	p.first[0].first[0] = 5;
	p.first[1].first[0] = 6;
	out[threadIdx.x] = p.first[threadIdx.x & 1].first[0];
}

template <typename P>
__global__ void sized_by_type(int *out)
{
	out[threadIdx.x] = (int)sizeof(P);
}

// Declared here, defined after main; static and extern "C" linkage.
__global__ void declared_first(int *out, int v = 21);
static __global__ void file_local(int *out) { out[0] = 22; }
extern "C" __global__ void c_linkage(int *out) { out[0] = 23; }

__device__ int device_counter = 0;

__global__ void compound_shifts(int *out, int n)
{
	volatile __shared__ unsigned int seen;
	int v = n;
	auto plus_one = [](int x) { return x + 1; };	// a lambda in device code

	if (threadIdx.x == 0)
		seen = 0;
	__syncthreads();
	atomicAdd((unsigned int *)&seen, 1u);
	v <<= 2;
	v >>= 1;
#pragma unroll
	for (int i = 0; i < 4; i++)
		v += i > 1 && i < 3;	// comparisons that look like angle brackets
	__syncthreads();
	if (threadIdx.x == 0) {
		out[0] = plus_one(v);
		out[1] = (int)seen;
		out[2] = atomicAdd(&device_counter, 1);
	}
	if constexpr (sizeof(int) == 4)
		out[3] = 4;
}

struct launcher {
	int *d;
	void run(int v) const { outer::inner::nested<<<1, 4>>>(d, v); }
	static void run_static(int *p) { file_local<<<1, 1>>>(p); }
};

static int
host_copy(int *d, int *h, int n)
{
	cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
	return h[0];
}

int main()
{
	int *d, h[64] = { 0 }, n = 64;
	cudaStream_t stream;

	cudaMalloc(&d, sizeof(h));
	cudaStreamCreate(&stream);

	shifted_sizes<<<1, 32>>>(d);
	host_copy(d, h, 32);
	expect(h[0] == 31 + 0 + 0 && h[5] == 26 + 10 + 15, "<< and >> in __shared__ sizes");

	launch_templated(d);
	host_copy(d, h, 32);
	expect(h[0] == 31 && h[31] == 0, "a launch inside a template, a template-sized __shared__ array");

	bounded<<<1, 128 >> 2>>>(d);	// >> inside the configuration
	host_copy(d, h, 32);
	expect(h[31] == 1, "__launch_bounds__ and a shift in the configuration");

	bounded_by_template<64><<<(n + 63) >> 6, 64, 0, stream>>>(d);
	cudaStreamSynchronize(stream);
	host_copy(d, h, 64);
	expect(h[63] == 64, "__launch_bounds__ from a template argument, four-part configuration");

	attributed<<<dim3(1), dim3(8, 1, 1), 0, 0>>>(d);
	host_copy(d, h, 8);
	expect(h[3] == 6 + 9 + 4 + 1, "attributes, alignas, __noinline__ and constexpr device functions");

	int c[4] = { 7, 8, 9, 10 };
	cudaMemcpyToSymbol(coefficients, c, sizeof(c));
	constant_memory<<<1, 8>>>(d);
	host_copy(d, h, 8);
	expect(h[2] == 9 && h[7] == 10, "__constant__ memory");

	outer::inner::nested<<<1, 4>>>(d, n >> 3);
	host_copy(d, h, 4);
	expect(h[3] == 8, "a kernel in nested namespaces, a shift in its argument");

	::outer::inner::nested<<<1, 2>>>(d, SHIFTED(10));
	host_copy(d, h, 2);
	expect(h[1] == 5, "a fully qualified kernel name");

	by_value<<<1, 1>>>(d, point{ 3, 4 } << 1);
	host_copy(d, h, 2);
	expect(h[0] == 12 && h[1] == 16, "an operator<< in the arguments");

	LAUNCH(outer::inner::nested, 4, d, 11);
	host_copy(d, h, 4);
	expect(h[3] == 11, "a launch inside a macro");

	LAUNCH_CONFIG(outer::inner::nested, 1, 4, d, 12);
	host_copy(d, h, 4);
	expect(h[3] == 12, "a launch inside a do-while macro");

	launch_any(outer::inner::nested, dim3(1), dim3(4), d, 13);
	host_copy(d, h, 4);
	expect(h[3] == 13, "a launch of a kernel passed to a template");

	nested_templates<<<1, 2>>>(d);
	host_copy(d, h, 2);
	expect(h[0] == 5 && h[1] == 6, ">> closing nested template argument lists");

	sized_by_type<holder<3>::pair<int>><<<1, 2>>>(d);	// '>>' then '<<<'
	host_copy(d, h, 2);
	expect(h[1] == 12, "a template argument list closed by '>>' right before '<<<'");

	declared_first<<<dim3{ 1, 1 }, dim3{ 1 }>>>(d);
	host_copy(d, h, 1);
	expect(h[0] == 21, "a kernel declared before it is defined, with a default argument, braces in the configuration");

	c_linkage<<<n > 2 ? 1 : 2, (n < 64) ? 1 : 32>>>(d);	// '>' and '<' inside the configuration
	host_copy(d, h, 1);
	expect(h[0] == 23, "comparisons inside the configuration, extern \"C\" kernel");

	compound_shifts<<<1, 32>>>(d, 3);
	host_copy(d, h, 4);
	expect(h[0] == 3 * 4 / 2 + 1 + 1 && h[1] == 32 && h[2] == 0 && h[3] == 4,
	       "<<= and >>=, #pragma unroll, a device lambda, volatile __shared__, if constexpr");

	launcher{ d }.run(15);
	host_copy(d, h, 4);
	expect(h[3] == 15, "a launch inside a member function");

	launcher::run_static(d);
	host_copy(d, h, 1);
	expect(h[0] == 22, "a launch of a static kernel inside a static member function");

	void (*pointer)(int *, int) = outer::inner::nested;
	pointer<<<1, 4>>>(d, 16);
	host_copy(d, h, 4);
	expect(h[3] == 16, "a launch through a function pointer");

	auto lambda_launch = [&](int v) { outer::inner::nested<<<1, 4>>>(d, v); };
	lambda_launch(14);
	host_copy(d, h, 4);
	expect(h[3] == 14, "a launch inside a lambda");

	expect(cudaDeviceSynchronize() == cudaSuccess, "no error from any launch");
	cudaStreamDestroy(stream);
	cudaFree(d);
	if (failures)
		return 1;
	printf("ok\n");
	return 0;
}

__global__ void declared_first(int *out, int v)
{
	out[0] = v;
}
