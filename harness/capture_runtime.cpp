/*
 * The capture process's CUDA runtime (harness/capture.cpp says what the
 * process is): the runtime's own entry points, found with dlsym(RTLD_NEXT)
 * before the sandbox, and the ones defined here that the submission's
 * shared object binds to (the executable exports them:
 * harness/capture.dynlist). Each records what it is asked
 * (capture_plan.cpp) while the submission's code runs, then calls the
 * runtime's own; the harness's own calls go to the runtime's directly.
 */
#include "harness/capture.h"

#include <dlfcn.h>

struct capture_runtime capture_real;

#define FIND(field, name) (capture_real.field = (decltype(capture_real.field))dlsym(RTLD_NEXT, name))

bool
capture_find_runtime(void)
{
	cudaDriverEntryPointQueryResult q;
	bool ok = FIND(launch_stub, "__cudaLaunchKernel") && FIND(launch, "cudaLaunchKernel") &&
		  FIND(launch_cooperative, "cudaLaunchCooperativeKernel") && FIND(launch_ex, "cudaLaunchKernelExC") &&
		  FIND(malloc, "cudaMalloc") && FIND(malloc_async, "cudaMallocAsync") && FIND(free, "cudaFree") &&
		  FIND(free_async, "cudaFreeAsync") && FIND(memset, "cudaMemset") &&
		  FIND(memset_async, "cudaMemsetAsync") && FIND(to_symbol, "cudaMemcpyToSymbol") &&
		  FIND(to_symbol_async, "cudaMemcpyToSymbolAsync") && FIND(set_attribute, "cudaFuncSetAttribute") &&
		  FIND(device_sync, "cudaDeviceSynchronize") && FIND(stream_sync, "cudaStreamSynchronize") &&
		  FIND(register_var, "__cudaRegisterVar");
	return ok &&
	       cudaGetDriverEntryPointByVersion("cuKernelGetName", (void **)&capture_real.kernel_name, 12080,
						cudaEnableDefault, &q) == cudaSuccess && capture_real.kernel_name &&
	       cudaGetDriverEntryPointByVersion("cuKernelGetParamInfo", (void **)&capture_real.kernel_param, 12080,
						cudaEnableDefault, &q) == cudaSuccess && capture_real.kernel_param;
}

/* ------------------------------------------------------------ the entry points the submission binds to */

extern "C" {

cudaError_t
__cudaLaunchKernel(cudaKernel_t k, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream)
{
	if (capture_rec.on)
		capture_record_launch(k, grid, block, args, shared, false);
	return capture_real.launch_stub(k, grid, block, args, shared, stream);
}

cudaError_t
cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream)
{
	if (capture_rec.on)
		capture_record_launch(capture_kernel_of(func), grid, block, args, shared, false);
	return capture_real.launch(func, grid, block, args, shared, stream);
}

cudaError_t
cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream)
{
	if (capture_rec.on)
		capture_record_launch(capture_kernel_of(func), grid, block, args, shared, true);
	return capture_real.launch_cooperative(func, grid, block, args, shared, stream);
}

cudaError_t
cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
	if (capture_rec.on && config) {
		bool cooperative = false;
		for (unsigned i = 0; i < config->numAttrs; i++) {
			if (config->attrs[i].id == cudaLaunchAttributeCooperative)
				cooperative = config->attrs[i].val.cooperative != 0;
			else if (config->attrs[i].id != cudaLaunchAttributePriority)
				capture_refuse("launched with cudaLaunchKernelEx's attribute %d, which a plan does not carry "
				       "(cooperative launches are replayed)", (int)config->attrs[i].id);
		}
		capture_record_launch(capture_kernel_of(func), config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
			      cooperative);
	}
	return capture_real.launch_ex(config, func, args);
}

cudaError_t
cudaMalloc(void **p, size_t bytes)
{
	cudaError_t e = capture_real.malloc(p, bytes);
	return capture_record_alloc_result(e, e == cudaSuccess ? *p : NULL, bytes);
}

cudaError_t
cudaMallocAsync(void **p, size_t bytes, cudaStream_t stream)
{
	cudaError_t e = capture_real.malloc_async(p, bytes, stream);
	return capture_record_alloc_result(e, e == cudaSuccess ? *p : NULL, bytes);
}

cudaError_t
cudaFree(void *p)
{
	if (capture_rec.on && !capture_record_free(p))
		return cudaErrorInvalidValue;
	return capture_real.free(p);
}

cudaError_t
cudaFreeAsync(void *p, cudaStream_t stream)
{
	if (capture_rec.on && !capture_record_free(p))
		return cudaErrorInvalidValue;
	return capture_real.free_async(p, stream);
}

cudaError_t
cudaMemset(void *p, int value, size_t bytes)
{
	if (capture_rec.on)
		capture_record_memset(p, value, bytes);
	return capture_real.memset(p, value, bytes);
}

cudaError_t
cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t stream)
{
	if (capture_rec.on)
		capture_record_memset(p, value, bytes);
	return capture_real.memset_async(p, value, bytes, stream);
}

cudaError_t
cudaMemcpyToSymbol(const void *symbol, const void *src, size_t bytes, size_t offset, cudaMemcpyKind kind)
{
	if (capture_rec.on)
		capture_record_symbol(symbol, src, bytes, offset, kind);
	return capture_real.to_symbol(symbol, src, bytes, offset, kind);
}

cudaError_t
cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t bytes, size_t offset, cudaMemcpyKind kind,
			cudaStream_t stream)
{
	if (capture_rec.on)
		capture_record_symbol(symbol, src, bytes, offset, kind);
	return capture_real.to_symbol_async(symbol, src, bytes, offset, kind, stream);
}

cudaError_t
cudaFuncSetAttribute(const void *func, cudaFuncAttribute attribute, int value)
{
	if (capture_rec.on)
		capture_record_attribute(func, attribute, value);
	return capture_real.set_attribute(func, attribute, value);
}

cudaError_t
cudaDeviceSynchronize(void)
{
	if (capture_rec.on)
		capture_add_record(PLAN_SYNC, NULL, 0);
	return capture_real.device_sync();
}

cudaError_t
cudaStreamSynchronize(cudaStream_t stream)
{
	if (capture_rec.on)
		capture_add_record(PLAN_SYNC, NULL, 0);
	return capture_real.stream_sync(stream);
}

void
__cudaRegisterVar(void **module, char *host, char *device, const char *name, int ext, size_t bytes, int constant,
		  int global)
{
	capture_record_variable(host, name, bytes, constant != 0);
	capture_real.register_var(module, host, device, name, ext, bytes, constant, global);
}

} /* extern "C" */
