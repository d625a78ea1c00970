// What a GPU does when a kernel reaches host memory that no CUDA call made
// (a malloc'd block, a host global): where the driver maps pageable memory
// for the GPU (HMM, cudaDevAttrPageableMemoryAccess), the kernel reads and
// writes it; elsewhere the launch fails with an illegal address, as the
// simulator's does. Prints one line per question; tests/gpu/host_memory.sh
// runs it and grades the simulator's host-memory cheats on the GPU.
#include <cstdio>
#include <cstdlib>

static float host_global[256];

struct hidden {
	float *p;
};

__global__ void copy_out(hidden h, float *out)
{
	out[threadIdx.x] = h.p[threadIdx.x];
}

__global__ void copy_in(const float *in, hidden h)
{
	h.p[threadIdx.x] = in[threadIdx.x] + 1.0f;
}

static void
attribute(const char *name, cudaDeviceAttr a)
{
	int v = -1;
	cudaError_t e = cudaDeviceGetAttribute(&v, a, 0);
	printf("%s: %d%s\n", name, v, e == cudaSuccess ? "" : " (not answered)");
}

// Run one kernel that touches host memory at p; a sticky error ends the context, so it is said and the program stops.
static bool
touches(const char *what, float *p)
{
	float *d;
	float back[256];
	for (int i = 0; i < 256; i++)
		p[i] = (float)i;
	cudaMalloc(&d, sizeof(back));
	copy_out<<<1, 256>>>(hidden{ p }, d);
	cudaError_t e = cudaDeviceSynchronize();
	if (e != cudaSuccess) {
		printf("%s: a kernel reading it fails: %s (%s)\n", what, cudaGetErrorName(e), cudaGetErrorString(e));
		return false;
	}
	cudaMemcpy(back, d, sizeof(back), cudaMemcpyDeviceToHost);
	printf("%s: a kernel reads it%s\n", what, back[200] == 200.0f ? ", the right values" : ", wrong values");
	copy_in<<<1, 256>>>(d, hidden{ p });
	e = cudaDeviceSynchronize();
	if (e != cudaSuccess) {
		printf("%s: a kernel writing it fails: %s\n", what, cudaGetErrorName(e));
		return false;
	}
	printf("%s: a kernel writes it%s\n", what, p[200] == 201.0f ? ", and the host sees the values" : ", unseen");
	cudaFree(d);
	return true;
}

int
main(void)
{
	cudaDeviceProp prop;
	if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
		printf("no GPU\n");
		return 3;
	}
	printf("device: %s, compute capability %d.%d\n", prop.name, prop.major, prop.minor);
	attribute("cudaDevAttrPageableMemoryAccess", cudaDevAttrPageableMemoryAccess);
	attribute("cudaDevAttrPageableMemoryAccessUsesHostPageTables", cudaDevAttrPageableMemoryAccessUsesHostPageTables);
	attribute("cudaDevAttrConcurrentManagedAccess", cudaDevAttrConcurrentManagedAccess);
	attribute("cudaDevAttrHostNativeAtomicSupported", cudaDevAttrHostNativeAtomicSupported);
	float *heap = (float *)malloc(256 * sizeof(float));
	if (touches("a malloc'd block", heap))
		touches("a host global", host_global);
	return 0;
}
