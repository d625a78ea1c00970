/*
 * device.c — the device the simulator shows the runtime's callers: one
 * device, number 0, that looks like an sm_90 GPU (its properties and
 * attributes), kernels' attributes, occupancy, limits and versions.
 *
 * Layer 4: calls error.c.
 */
#include "sim.h"

#include <unistd.h>

int sim_dyn_smem_optin;

/* The machine's memory: what the device reports as its global memory. */
size_t
sim_total_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	return pages > 0 && size > 0 ? (size_t)pages * (size_t)size : (size_t)8 << 30;
}

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
	p->totalGlobalMem = sim_total_memory();
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
	attr->maxThreadsPerBlock = cudasim_kernel_bound(func) ? (int)cudasim_kernel_bound(func) : 1024;
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

/* One bank width (four bytes) on compute capability 9: the deprecated settings change nothing. */
cudaError_t
cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config)
{
	(void)func, (void)config;
	return sim_sticky();
}

cudaError_t
cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
	(void)config;
	return sim_sticky();
}

cudaError_t
cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *config)
{
	if (!config)
		return sim_error(cudaErrorInvalidValue, "cudaDeviceGetSharedMemConfig: a null pointer");
	*config = cudaSharedMemBankSizeFourByte;
	return sim_sticky();
}

/* What a device nobody set flags on answers: automatic scheduling, host memory mappable. */
cudaError_t
cudaGetDeviceFlags(unsigned *flags)
{
	if (!flags)
		return sim_error(cudaErrorInvalidValue, "cudaGetDeviceFlags: a null pointer");
	*flags = cudaDeviceScheduleAuto | cudaDeviceMapHost;
	return sim_sticky();
}

/* One device: no peer. */
cudaError_t
cudaDeviceCanAccessPeer(int *can, int device, int peer)
{
	if (!can)
		return sim_error(cudaErrorInvalidValue, "cudaDeviceCanAccessPeer: a null pointer");
	if (device != 0 || peer != 0)
		return sim_error(cudaErrorInvalidDevice, "cudaDeviceCanAccessPeer: device %d and %d, where device 0 is "
				 "the only one", device, peer);
	*can = 0;
	return sim_sticky();
}

cudaError_t
cudaProfilerStart(void)
{
	return sim_sticky();
}

cudaError_t
cudaProfilerStop(void)
{
	return sim_sticky();
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

/* The dynamic shared memory each of `blocks` blocks may have on one multiprocessor (1 KiB a block is the
   system's), at most the opt-in limit of one block. */
cudaError_t
cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dyn_smem, const void *func, int blocks, int block_size)
{
	STICKY();
	if (!dyn_smem || !func || blocks <= 0 || block_size <= 0 || block_size > 1024 || blocks * block_size > 2048)
		return sim_error(cudaErrorInvalidValue,
				 "cudaOccupancyAvailableDynamicSMemPerBlock: a null pointer, or %d blocks of %d threads, "
				 "more than a multiprocessor holds", blocks, block_size);
	size_t each = 233472 / (size_t)blocks - 1024;
	*dyn_smem = each < 232448 ? each : 232448;
	return cudaSuccess;
}

/* H100's range: 0 the least urgent, -5 the most */
cudaError_t
cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
	if (least)
		*least = 0;
	if (greatest)
		*greatest = -5;
	return sim_sticky();
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

/* The block of most threads on a multiprocessor, the largest of those, at most limit (0: none). */
cudaError_t
cudaOccupancyMaxPotentialBlockSizeVariableSMem_impl(int *min_grid, int *block_size,
						    size_t (*smem_of)(const void *ctx, int block_size), const void *ctx,
						    int limit)
{
	/* a bound under a warp is the block itself, as CUDA answers it */
	int best = limit > 0 && limit < 32 ? limit : 32, best_blocks;

	STICKY();
	if (!min_grid || !block_size || !smem_of)
		return sim_error(cudaErrorInvalidValue, "cudaOccupancyMaxPotentialBlockSize: a null pointer");
	best_blocks = blocks_per_sm(best, smem_of(ctx, best));
	for (int b = 32; b <= 1024 && (!limit || b <= limit); b += 32) {
		int n = blocks_per_sm(b, smem_of(ctx, b));

		if (b * n >= best * best_blocks) {
			best = b;
			best_blocks = n;
		}
	}
	*block_size = best;
	*min_grid = best_blocks * cpus();
	return cudaSuccess;
}

static size_t
fixed_smem(const void *dyn_smem, int block_size)
{
	(void)block_size;
	return *(const size_t *)dyn_smem;
}

cudaError_t
cudaOccupancyMaxPotentialBlockSize_impl(int *min_grid, int *block_size, size_t dyn_smem, int limit)
{
	return cudaOccupancyMaxPotentialBlockSizeVariableSMem_impl(min_grid, block_size, fixed_smem, &dyn_smem, limit);
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
