/*
 * runtime.c — the CUDA runtime calls that the harness and the lessons use:
 * memory, copies, streams (which run synchronously), events (the host
 * clock), and a device that looks like an sm_90 GPU.
 *
 * Layer 4: calls error.c and memory.c.
 */
#include "sim.h"

#include <time.h>
#include <unistd.h>

int sim_dyn_smem_optin;

#define STREAM_MAGIC 0x5354524du
#define EVENT_MAGIC 0x4556454eu

struct CUstream_st {
	unsigned magic;
	struct CUstream_st *next;
};

struct CUevent_st {
	unsigned magic;
	unsigned flags;
	bool recorded;
	double ms;
};

static struct CUstream_st *streams;

/* Most calls fail with a sticky error, as every call does on a GPU after a fault. */
#define STICKY() do { if (sim_sticky()) return sim_sticky(); } while (0)

static const char *
kind_name(enum cudaMemcpyKind kind)
{
	switch (kind) {
	case cudaMemcpyHostToHost: return "cudaMemcpyHostToHost";
	case cudaMemcpyHostToDevice: return "cudaMemcpyHostToDevice";
	case cudaMemcpyDeviceToHost: return "cudaMemcpyDeviceToHost";
	case cudaMemcpyDeviceToDevice: return "cudaMemcpyDeviceToDevice";
	default: return "cudaMemcpyDefault";
	}
}

/* ---------------------------------------------------------------- memory */

static cudaError_t
alloc_into(const char *call, void **ptr, size_t size, enum sim_alloc_kind kind)
{
	STICKY();
	if (!ptr)
		return sim_error(cudaErrorInvalidValue, "%s was given a null pointer to store the address in", call);
	*ptr = NULL;
	if (!size)
		return cudaSuccess;
	*ptr = sim_alloc(size, kind);
	if (!*ptr)
		return sim_error(cudaErrorMemoryAllocation, "%s could not allocate %zu bytes", call, size);
	return cudaSuccess;
}

cudaError_t
cudaMalloc(void **ptr, size_t size)
{
	return alloc_into("cudaMalloc", ptr, size, SIM_DEVICE);
}

cudaError_t
cudaMallocManaged(void **ptr, size_t size, unsigned flags)
{
	(void)flags;
	return cudaMalloc(ptr, size);
}

static cudaError_t
free_from(const char *call, const char *maker, void *ptr, enum sim_alloc_kind kind)
{
	STICKY();
	if (!ptr)
		return cudaSuccess;
	if (sim_free(ptr, kind))
		return sim_error(cudaErrorInvalidValue,
				 "%s(%p): not an address that %s returned (freed twice, or "
				 "another kind of pointer?)", call, ptr, maker);
	return cudaSuccess;
}

cudaError_t
cudaFree(void *ptr)
{
	return free_from("cudaFree", "cudaMalloc", ptr, SIM_DEVICE);
}

/* Stream-ordered: a stream's work runs in order, and the simulator's streams are one. */
cudaError_t
cudaMallocAsync(void **ptr, size_t size, cudaStream_t stream)
{
	if (!sim_stream_valid(stream))
		return sim_error(cudaErrorInvalidResourceHandle, "cudaMallocAsync: an invalid stream");
	return alloc_into("cudaMallocAsync", ptr, size, SIM_DEVICE);
}

cudaError_t
cudaFreeAsync(void *ptr, cudaStream_t stream)
{
	if (!sim_stream_valid(stream))
		return sim_error(cudaErrorInvalidResourceHandle, "cudaFreeAsync: an invalid stream");
	return free_from("cudaFreeAsync", "cudaMalloc or cudaMallocAsync", ptr, SIM_DEVICE);
}

cudaError_t
cudaMallocHost(void **ptr, size_t size)
{
	return alloc_into("cudaMallocHost", ptr, size, SIM_HOST_PINNED);
}

cudaError_t
cudaHostAlloc(void **ptr, size_t size, unsigned flags)
{
	(void)flags;
	return cudaMallocHost(ptr, size);
}

cudaError_t
cudaFreeHost(void *ptr)
{
	return free_from("cudaFreeHost", "cudaMallocHost", ptr, SIM_HOST_PINNED);
}

static cudaError_t
check_device_range(const char *call, const char *which, const void *p, size_t count,
		   enum cudaMemcpyKind kind)
{
	struct sim_alloc *a = sim_alloc_find(p);

	if (!a || a->kind != SIM_DEVICE)
		return sim_error(cudaErrorInvalidValue,
				 "%s(..., %s): the %s (%p) is not device memory from cudaMalloc%s",
				 call, kind_name(kind), which, p,
				 kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToHost ?
				 " (are the destination and the source swapped, or the direction wrong?)" : "");
	if ((const char *)p + count > a->ptr + a->size)
		return sim_error(cudaErrorInvalidValue,
				 "%s(..., %s): %zu bytes from byte %zu of a %zu-byte allocation "
				 "run past its end", call, kind_name(kind), count,
				 (size_t)((const char *)p - a->ptr), a->size);
	return cudaSuccess;
}

cudaError_t
cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
	cudaError_t err = cudaSuccess;

	STICKY();
	if ((unsigned)kind > cudaMemcpyDefault)
		return sim_error(cudaErrorInvalidMemcpyDirection,
				 "cudaMemcpy: %d is not a cudaMemcpyKind", (int)kind);
	if (!count)
		return cudaSuccess;
	if (!dst || !src)
		return sim_error(cudaErrorInvalidValue, "cudaMemcpy: a null %s pointer",
				 dst ? "source" : "destination");
	if (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice)
		err = check_device_range("cudaMemcpy", "destination", dst, count, kind);
	if (!err && (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice))
		err = check_device_range("cudaMemcpy", "source", src, count, kind);
	if (err)
		return err;
	sim_device_open();
	memmove(dst, src, count);
	sim_device_close();
	return cudaSuccess;
}

cudaError_t
cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
		cudaStream_t stream)
{
	if (!sim_stream_valid(stream))
		return sim_error(cudaErrorInvalidResourceHandle, "cudaMemcpyAsync: an invalid stream");
	return cudaMemcpy(dst, src, count, kind);
}

cudaError_t
cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
	     size_t height, enum cudaMemcpyKind kind)
{
	STICKY();
	if (width > dpitch || width > spitch)
		return sim_error(cudaErrorInvalidPitchValue,
				 "cudaMemcpy2D: a row of %zu bytes is wider than a pitch (%zu, %zu)",
				 width, dpitch, spitch);
	for (size_t r = 0; r < height; r++) {
		cudaError_t err = cudaMemcpy((char *)dst + r * dpitch,
					     (const char *)src + r * spitch, width, kind);

		if (err)
			return err;
	}
	return cudaSuccess;
}

cudaError_t
cudaMemset(void *ptr, int value, size_t count)
{
	cudaError_t err;

	STICKY();
	if (!count)
		return cudaSuccess;
	err = check_device_range("cudaMemset", "destination", ptr, count, cudaMemcpyDefault);
	if (err)
		return err;
	sim_device_open();
	memset(ptr, value, count);
	sim_device_close();
	return cudaSuccess;
}

cudaError_t
cudaMemsetAsync(void *ptr, int value, size_t count, cudaStream_t stream)
{
	if (!sim_stream_valid(stream))
		return sim_error(cudaErrorInvalidResourceHandle, "cudaMemsetAsync: an invalid stream");
	return cudaMemset(ptr, value, count);
}

static size_t
total_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	return pages > 0 && size > 0 ? (size_t)pages * (size_t)size : (size_t)8 << 30;
}

cudaError_t
cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
	long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	STICKY();
	if (free_bytes)
		*free_bytes = pages > 0 ? (size_t)pages * (size_t)size : total_memory() / 2;
	if (total_bytes)
		*total_bytes = total_memory();
	return cudaSuccess;
}

cudaError_t
cudaMemcpyToSymbol_impl(void *symbol, size_t symsize, const void *src, size_t count,
			size_t offset, enum cudaMemcpyKind kind)
{
	STICKY();
	(void)kind;
	if (offset + count > symsize)
		return sim_error(cudaErrorInvalidValue,
				 "cudaMemcpyToSymbol: %zu bytes at offset %zu do not fit a %zu-byte symbol",
				 count, offset, symsize);
	sim_device_open();
	memmove((char *)symbol + offset, src, count);
	sim_device_close();
	return cudaSuccess;
}

cudaError_t
cudaMemcpyFromSymbol_impl(void *dst, const void *symbol, size_t symsize, size_t count,
			  size_t offset, enum cudaMemcpyKind kind)
{
	STICKY();
	(void)kind;
	if (offset + count > symsize)
		return sim_error(cudaErrorInvalidValue,
				 "cudaMemcpyFromSymbol: %zu bytes at offset %zu do not fit a %zu-byte symbol",
				 count, offset, symsize);
	sim_device_open();
	memmove(dst, (const char *)symbol + offset, count);
	sim_device_close();
	return cudaSuccess;
}

/* ---------------------------------------------------------------- synchronisation and streams */

cudaError_t
cudaDeviceSynchronize(void)
{
	return sim_sticky();
}

cudaError_t
cudaThreadSynchronize(void)
{
	return sim_sticky();
}

cudaError_t
cudaDeviceReset(void)
{
	sim_free_all();
	sim_error_reset();
	sim_dyn_smem_optin = 0;
	return cudaSuccess;
}

bool
sim_stream_valid(cudaStream_t s)
{
	if (!s || s == cudaStreamLegacy || s == cudaStreamPerThread)
		return true;
	for (struct CUstream_st *p = streams; p; p = p->next)
		if (p == s)
			return true;
	return false;
}

cudaError_t
cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags)
{
	struct CUstream_st *s;

	(void)flags;
	STICKY();
	if (!stream)
		return sim_error(cudaErrorInvalidValue, "cudaStreamCreate was given a null pointer");
	s = calloc(1, sizeof(*s));
	if (!s)
		return sim_error(cudaErrorMemoryAllocation, "cudaStreamCreate: out of memory");
	s->magic = STREAM_MAGIC;
	s->next = streams;
	streams = s;
	*stream = s;
	return cudaSuccess;
}

cudaError_t
cudaStreamCreate(cudaStream_t *stream)
{
	return cudaStreamCreateWithFlags(stream, cudaStreamDefault);
}

cudaError_t
cudaStreamDestroy(cudaStream_t stream)
{
	STICKY();
	for (struct CUstream_st **p = &streams; *p; p = &(*p)->next)
		if (*p == stream) {
			*p = stream->next;
			free(stream);
			return cudaSuccess;
		}
	return sim_error(cudaErrorInvalidResourceHandle,
			 "cudaStreamDestroy: not a stream that cudaStreamCreate made");
}

cudaError_t
cudaStreamSynchronize(cudaStream_t stream)
{
	STICKY();
	if (!sim_stream_valid(stream))
		return sim_error(cudaErrorInvalidResourceHandle, "cudaStreamSynchronize: an invalid stream");
	return cudaSuccess;
}

cudaError_t
cudaStreamQuery(cudaStream_t stream)
{
	return cudaStreamSynchronize(stream);
}

cudaError_t
cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags)
{
	(void)flags;
	STICKY();
	if (!sim_stream_valid(stream) || !event || event->magic != EVENT_MAGIC)
		return sim_error(cudaErrorInvalidResourceHandle, "cudaStreamWaitEvent: an invalid stream or event");
	return cudaSuccess;
}

/* ---------------------------------------------------------------- events */

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

long long
cudasim_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

cudaError_t
cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags)
{
	struct CUevent_st *e;

	STICKY();
	if (!event)
		return sim_error(cudaErrorInvalidValue, "cudaEventCreate was given a null pointer");
	e = calloc(1, sizeof(*e));
	if (!e)
		return sim_error(cudaErrorMemoryAllocation, "cudaEventCreate: out of memory");
	e->magic = EVENT_MAGIC;
	e->flags = flags;
	*event = e;
	return cudaSuccess;
}

cudaError_t
cudaEventCreate(cudaEvent_t *event)
{
	return cudaEventCreateWithFlags(event, cudaEventDefault);
}

static bool
event_ok(cudaEvent_t e)
{
	return e && e->magic == EVENT_MAGIC;
}

cudaError_t
cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
	STICKY();
	if (!event_ok(event) || !sim_stream_valid(stream))
		return sim_error(cudaErrorInvalidResourceHandle, "cudaEventRecord: an invalid event or stream");
	event->ms = now_ms();
	event->recorded = true;
	return cudaSuccess;
}

cudaError_t
cudaEventSynchronize(cudaEvent_t event)
{
	STICKY();
	if (!event_ok(event))
		return sim_error(cudaErrorInvalidResourceHandle, "cudaEventSynchronize: an invalid event");
	return cudaSuccess;
}

cudaError_t
cudaEventQuery(cudaEvent_t event)
{
	return cudaEventSynchronize(event);
}

cudaError_t
cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
	STICKY();
	if (!ms)
		return sim_error(cudaErrorInvalidValue, "cudaEventElapsedTime was given a null pointer");
	if (!event_ok(start) || !event_ok(end) || ((start->flags | end->flags) & cudaEventDisableTiming))
		return sim_error(cudaErrorInvalidResourceHandle,
				 "cudaEventElapsedTime: an invalid event, or one made with cudaEventDisableTiming");
	if (!start->recorded || !end->recorded)
		return sim_error(cudaErrorInvalidResourceHandle,
				 "cudaEventElapsedTime: an event that cudaEventRecord never recorded");
	*ms = (float)(end->ms - start->ms);
	return cudaSuccess;
}

cudaError_t
cudaEventDestroy(cudaEvent_t event)
{
	STICKY();
	if (!event_ok(event))
		return sim_error(cudaErrorInvalidResourceHandle, "cudaEventDestroy: an invalid event");
	event->magic = 0;
	free(event);
	return cudaSuccess;
}

/* ---------------------------------------------------------------- the device */

cudaError_t
cudaGetDeviceCount(int *count)
{
	if (!count)
		return sim_error(cudaErrorInvalidValue, "cudaGetDeviceCount was given a null pointer");
	*count = 1;
	return cudaSuccess;
}

cudaError_t
cudaSetDevice(int device)
{
	STICKY();
	if (device != 0)
		return sim_error(cudaErrorInvalidDevice,
				 "cudaSetDevice(%d): the simulator is the only device, number 0", device);
	return cudaSuccess;
}

cudaError_t
cudaGetDevice(int *device)
{
	STICKY();
	if (!device)
		return sim_error(cudaErrorInvalidValue, "cudaGetDevice was given a null pointer");
	*device = 0;
	return cudaSuccess;
}

int sim_reported_sms;

static int
cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (sim_reported_sms > 0)
		return sim_reported_sms;
	return n > 0 ? (int)n : 1;
}

cudaError_t
cudaGetDeviceProperties(struct cudaDeviceProp *p, int device)
{
	STICKY();
	if (!p)
		return sim_error(cudaErrorInvalidValue, "cudaGetDeviceProperties was given a null pointer");
	if (device != 0)
		return sim_error(cudaErrorInvalidDevice, "cudaGetDeviceProperties(%d): no such device", device);
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "cudalings CPU simulator");
	p->totalGlobalMem = total_memory();
	p->sharedMemPerBlock = SIM_SMEM_DEFAULT;
	p->regsPerBlock = 65536;
	p->warpSize = SIM_WARP;
	p->memPitch = 2147483647;
	p->maxThreadsPerBlock = 1024;
	p->maxThreadsDim[0] = 1024;
	p->maxThreadsDim[1] = 1024;
	p->maxThreadsDim[2] = 64;
	p->maxGridSize[0] = 2147483647;
	p->maxGridSize[1] = 65535;
	p->maxGridSize[2] = 65535;
	p->totalConstMem = 65536;
	p->major = 9;
	p->minor = 0;
	p->textureAlignment = 512;
	p->texturePitchAlignment = 32;
	p->multiProcessorCount = cpus();
	p->canMapHostMemory = 1;
	p->concurrentKernels = 1;
	p->asyncEngineCount = 2;
	p->unifiedAddressing = 1;
	p->memoryBusWidth = 5120;
	p->l2CacheSize = 50 << 20;
	p->persistingL2CacheMaxSize = 0;
	p->maxThreadsPerMultiProcessor = 2048;
	p->streamPrioritiesSupported = 1;
	p->globalL1CacheSupported = 1;
	p->localL1CacheSupported = 1;
	p->sharedMemPerMultiprocessor = 233472;
	p->regsPerMultiprocessor = 65536;
	p->managedMemory = 1;
	p->cooperativeLaunch = 1;
	p->sharedMemPerBlockOptin = CUDASIM_SMEM_OPTIN;
	p->maxBlocksPerMultiProcessor = 32;
	p->reservedSharedMemPerBlock = 1024;
	return cudaSuccess;
}

cudaError_t
cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
	struct cudaDeviceProp p;
	int v;

	STICKY();
	if (!value)
		return sim_error(cudaErrorInvalidValue, "cudaDeviceGetAttribute was given a null pointer");
	if (cudaGetDeviceProperties(&p, device))
		return sim_error(cudaErrorInvalidDevice, "cudaDeviceGetAttribute: no device %d", device);
	switch (attr) {
	case cudaDevAttrMaxThreadsPerBlock: v = p.maxThreadsPerBlock; break;
	case cudaDevAttrMaxBlockDimX: v = p.maxThreadsDim[0]; break;
	case cudaDevAttrMaxBlockDimY: v = p.maxThreadsDim[1]; break;
	case cudaDevAttrMaxBlockDimZ: v = p.maxThreadsDim[2]; break;
	case cudaDevAttrMaxGridDimX: v = p.maxGridSize[0]; break;
	case cudaDevAttrMaxGridDimY: v = p.maxGridSize[1]; break;
	case cudaDevAttrMaxGridDimZ: v = p.maxGridSize[2]; break;
	case cudaDevAttrMaxSharedMemoryPerBlock: v = (int)p.sharedMemPerBlock; break;
	case cudaDevAttrTotalConstantMemory: v = (int)p.totalConstMem; break;
	case cudaDevAttrWarpSize: v = p.warpSize; break;
	case cudaDevAttrMaxPitch: v = (int)p.memPitch; break;
	case cudaDevAttrMaxRegistersPerBlock: v = p.regsPerBlock; break;
	case cudaDevAttrClockRate: v = 1980000; break;
	case cudaDevAttrTextureAlignment: v = (int)p.textureAlignment; break;
	case cudaDevAttrGpuOverlap: v = 1; break;
	case cudaDevAttrMultiProcessorCount: v = p.multiProcessorCount; break;
	case cudaDevAttrKernelExecTimeout: v = 0; break;
	case cudaDevAttrIntegrated: v = 0; break;
	case cudaDevAttrCanMapHostMemory: v = 1; break;
	case cudaDevAttrComputeMode: v = 0; break;
	case cudaDevAttrConcurrentKernels: v = 1; break;
	case cudaDevAttrEccEnabled: v = 0; break;
	case cudaDevAttrPciBusId: v = 0; break;
	case cudaDevAttrPciDeviceId: v = 0; break;
	case cudaDevAttrPciDomainId: v = 0; break;
	case cudaDevAttrMemoryClockRate: v = 2619000; break;
	case cudaDevAttrGlobalMemoryBusWidth: v = p.memoryBusWidth; break;
	case cudaDevAttrL2CacheSize: v = p.l2CacheSize; break;
	case cudaDevAttrMaxThreadsPerMultiProcessor: v = p.maxThreadsPerMultiProcessor; break;
	case cudaDevAttrAsyncEngineCount: v = p.asyncEngineCount; break;
	case cudaDevAttrUnifiedAddressing: v = 1; break;
	case cudaDevAttrComputeCapabilityMajor: v = p.major; break;
	case cudaDevAttrComputeCapabilityMinor: v = p.minor; break;
	case cudaDevAttrMaxSharedMemoryPerMultiprocessor: v = (int)p.sharedMemPerMultiprocessor; break;
	case cudaDevAttrMaxRegistersPerMultiprocessor: v = p.regsPerMultiprocessor; break;
	case cudaDevAttrManagedMemory: v = 1; break;
	case cudaDevAttrCooperativeLaunch: v = 1; break;
	case cudaDevAttrMaxSharedMemoryPerBlockOptin: v = (int)p.sharedMemPerBlockOptin; break;
	case cudaDevAttrMaxBlocksPerMultiprocessor: v = p.maxBlocksPerMultiProcessor; break;
	case cudaDevAttrMaxPersistingL2CacheSize: v = 0; break;
	case cudaDevAttrReservedSharedMemoryPerBlock: v = (int)p.reservedSharedMemPerBlock; break;
	default:
		return sim_error(cudaErrorInvalidValue,
				 "cudaDeviceGetAttribute: the simulator has no value for attribute %d",
				 (int)attr);
	}
	*value = v;
	return cudaSuccess;
}

/*
 * The opt-in is remembered for the program, not per kernel: a launch names
 * its kernel through a lambda, whose address is not the kernel's.
 */
cudaError_t
cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
	STICKY();
	if (!func)
		return sim_error(cudaErrorInvalidDeviceFunction, "cudaFuncSetAttribute: a null function");
	switch (attr) {
	case cudaFuncAttributeMaxDynamicSharedMemorySize:
		if (value < 0 || value > CUDASIM_SMEM_OPTIN)
			return sim_error(cudaErrorInvalidValue,
					 "cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize, "
					 "%d): a block may have at most %d bytes", value, CUDASIM_SMEM_OPTIN);
		if (value > sim_dyn_smem_optin)
			sim_dyn_smem_optin = value;
		return cudaSuccess;
	case cudaFuncAttributePreferredSharedMemoryCarveout:
		if (value < -1 || value > 100)
			return sim_error(cudaErrorInvalidValue,
					 "cudaFuncSetAttribute: a carveout is -1 or a percentage, not %d", value);
		return cudaSuccess;
	default:
		return sim_error(cudaErrorInvalidValue,
				 "cudaFuncSetAttribute: attribute %d is not one the simulator knows", (int)attr);
	}
}

cudaError_t
cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
	STICKY();
	if (!attr || !func)
		return sim_error(cudaErrorInvalidValue, "cudaFuncGetAttributes: a null pointer");
	memset(attr, 0, sizeof(*attr));
	attr->maxThreadsPerBlock = 1024;
	attr->numRegs = 32;
	attr->ptxVersion = 90;
	attr->binaryVersion = 90;
	attr->maxDynamicSharedSizeBytes = sim_dyn_smem_optin ? sim_dyn_smem_optin : SIM_SMEM_DEFAULT;
	attr->preferredShmemCarveout = -1;
	return cudaSuccess;
}

cudaError_t
cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache config)
{
	(void)func, (void)config;
	return sim_sticky();
}

cudaError_t
cudaDeviceSetCacheConfig(enum cudaFuncCache config)
{
	(void)config;
	return sim_sticky();
}

cudaError_t
cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height)
{
	if (!pitch)
		return sim_error(cudaErrorInvalidValue, "cudaMallocPitch was given a null pitch pointer");
	*pitch = (width + 511) / 512 * 512;
	return alloc_into("cudaMallocPitch", ptr, *pitch * height, SIM_DEVICE);
}

/* An sm_90 multiprocessor: 2048 threads, 32 blocks, 228 KiB of shared memory. */
static int
blocks_per_sm(int block_size, size_t dyn_smem)
{
	int by_threads = block_size > 0 ? 2048 / block_size : 0;
	int by_smem = dyn_smem ? (int)(233472 / (dyn_smem + 1024)) : 32;
	int n = by_threads < by_smem ? by_threads : by_smem;

	return n < 32 ? n : 32;
}

cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func, int block_size,
					       size_t dyn_smem)
{
	STICKY();
	if (!blocks || !func || block_size <= 0 || block_size > 1024)
		return sim_error(cudaErrorInvalidValue,
				 "cudaOccupancyMaxActiveBlocksPerMultiprocessor: a null pointer or "
				 "a block size (%d) outside 1..1024", block_size);
	*blocks = blocks_per_sm(block_size, dyn_smem);
	return cudaSuccess;
}

cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, const void *func, int block_size,
							size_t dyn_smem, unsigned flags)
{
	(void)flags;
	return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, func, block_size, dyn_smem);
}

/* What a GPU of CUDA 13 answers by default; a kernel's limits are the simulator's own. */
static size_t limits[] = {
	[cudaLimitStackSize] = 1024,
	[cudaLimitPrintfFifoSize] = 1 << 20,
	[cudaLimitMallocHeapSize] = 8 << 20,
	[cudaLimitDevRuntimeSyncDepth] = 2,
	[cudaLimitDevRuntimePendingLaunchCount] = 2048,
	[cudaLimitMaxL2FetchGranularity] = 64,
	[cudaLimitPersistingL2CacheSize] = 0,
};

cudaError_t
cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
	STICKY();
	if ((unsigned)limit >= sizeof(limits) / sizeof(*limits))
		return sim_error(cudaErrorUnsupportedLimit, "cudaDeviceSetLimit: limit %d is not one CUDA has", (int)limit);
	limits[limit] = value;
	return cudaSuccess;
}

cudaError_t
cudaDeviceGetLimit(size_t *value, enum cudaLimit limit)
{
	STICKY();
	if (!value || (unsigned)limit >= sizeof(limits) / sizeof(*limits))
		return sim_error(cudaErrorUnsupportedLimit, "cudaDeviceGetLimit: a null pointer or limit %d", (int)limit);
	*value = limits[limit];
	return cudaSuccess;
}

cudaError_t
cudaOccupancyMaxPotentialBlockSize_impl(int *min_grid, int *block_size, size_t dyn_smem, int limit)
{
	int best = 32;

	STICKY();
	if (!min_grid || !block_size)
		return sim_error(cudaErrorInvalidValue, "cudaOccupancyMaxPotentialBlockSize: a null pointer");
	for (int b = 32; b <= 1024 && (!limit || b <= limit); b += 32)
		if (b * blocks_per_sm(b, dyn_smem) >= best * blocks_per_sm(best, dyn_smem))
			best = b;
	*block_size = best;
	*min_grid = blocks_per_sm(best, dyn_smem) * cpus();
	return cudaSuccess;
}

cudaError_t
cudaRuntimeGetVersion(int *version)
{
	if (version)
		*version = CUDART_VERSION;
	return cudaSuccess;
}

cudaError_t
cudaDriverGetVersion(int *version)
{
	if (version)
		*version = CUDART_VERSION;
	return cudaSuccess;
}
