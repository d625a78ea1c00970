/*
 * runtime.c — the CUDA runtime calls that the harness and the lessons use:
 * memory, copies, streams (which run synchronously), events (the host
 * clock). The device itself (properties, attributes, occupancy, limits) is
 * device.c's.
 *
 * Layer 4: calls error.c and memory.c.
 */
#include "sim.h"

#include <time.h>
#include <unistd.h>

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
	STICKY_AS(call);
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
	STICKY_AS(call);
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

	if (!a && sim_is_devvar(p)) {
		/* a __device__ variable's address (cudaGetSymbolAddress): device memory, as on a GPU */
		size_t n;
		const char *lo = sim_devvars(&n);
		if ((const char *)p + count > lo + n)
			return sim_error(cudaErrorInvalidValue,
					 "%s(..., %s): %zu bytes from the %s (%p), a __device__ variable's, "
					 "run past the end of the __device__ variables", call, kind_name(kind), count,
					 which, p);
		return cudaSuccess;
	}
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

/* Rows of width bytes, pitch bytes apart, each checked as cudaMemset checks its range. */
cudaError_t
cudaMemset2D(void *ptr, size_t pitch, int value, size_t width, size_t height)
{
	STICKY();
	if (width > pitch && height > 1)
		return sim_error(cudaErrorInvalidPitchValue, "cudaMemset2D: a row of %zu bytes is wider than the "
				 "pitch (%zu)", width, pitch);
	for (size_t r = 0; r < height; r++) {
		cudaError_t err = cudaMemset((char *)ptr + r * pitch, value, width);

		if (err)
			return err;
	}
	return cudaSuccess;
}

cudaError_t
cudaMemset2DAsync(void *ptr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream)
{
	if (!sim_stream_valid(stream))
		return sim_error(cudaErrorInvalidResourceHandle, "cudaMemset2DAsync: an invalid stream");
	return cudaMemset2D(ptr, pitch, value, width, height);
}

/* Device memory: a cudaMalloc block or a __device__ variable; anything else is host memory CUDA never saw. */
cudaError_t
cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
	STICKY();
	if (!attributes)
		return sim_error(cudaErrorInvalidValue, "cudaPointerGetAttributes was given a null pointer");
	bool device = ptr && (sim_alloc_find(ptr) || sim_is_devvar(ptr));
	attributes->type = device ? cudaMemoryTypeDevice : cudaMemoryTypeUnregistered;
	attributes->device = device ? 0 : -2;
	attributes->devicePointer = device ? (void *)ptr : NULL;
	attributes->hostPointer = NULL;
	return cudaSuccess;
}

cudaError_t
cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
	long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	STICKY();
	if (free_bytes)
		*free_bytes = pages > 0 ? (size_t)pages * (size_t)size : sim_total_memory() / 2;
	if (total_bytes)
		*total_bytes = sim_total_memory();
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

cudaError_t
cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height)
{
	if (!pitch)
		return sim_error(cudaErrorInvalidValue, "cudaMallocPitch was given a null pitch pointer");
	*pitch = (width + 511) / 512 * 512;
	return alloc_into("cudaMallocPitch", ptr, *pitch * height, SIM_DEVICE);
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

/* The default stream's: the priority of least urgency, blocking. */
cudaError_t
cudaStreamGetPriority(cudaStream_t stream, int *priority)
{
	STICKY();
	if (!sim_stream_valid(stream) || !priority)
		return sim_error(cudaErrorInvalidValue, "cudaStreamGetPriority: an invalid stream or a null pointer");
	*priority = 0;
	return cudaSuccess;
}

cudaError_t
cudaStreamGetFlags(cudaStream_t stream, unsigned *flags)
{
	STICKY();
	if (!sim_stream_valid(stream) || !flags)
		return sim_error(cudaErrorInvalidValue, "cudaStreamGetFlags: an invalid stream or a null pointer");
	*flags = cudaStreamDefault;
	return cudaSuccess;
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
