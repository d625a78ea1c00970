/*
 * error.c — the CUDA error state: the last error, sticky errors after a
 * fault (every later call fails with it, as on a GPU whose context is
 * corrupted), the names and strings, and the plain-words detail.
 */
#include "sim.h"

static cudaError_t last;	/* what cudaGetLastError returns and clears */
static cudaError_t sticky;	/* a fault: stays until cudaDeviceReset */
static char detail[4096];

static bool
is_sticky(cudaError_t err)
{
	switch (err) {
	case cudaErrorIllegalAddress:
	case cudaErrorLaunchTimeout:
	case cudaErrorAssert:
	case cudaErrorHardwareStackError:
	case cudaErrorIllegalInstruction:
	case cudaErrorMisalignedAddress:
	case cudaErrorInvalidAddressSpace:
	case cudaErrorInvalidPc:
	case cudaErrorLaunchFailure:
		return true;
	default:
		return false;
	}
}

cudaError_t
sim_error(cudaError_t err, const char *fmt, ...)
{
	va_list ap;

	if (sticky)
		return sticky;
	last = err;
	if (is_sticky(err))
		sticky = err;
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(detail, sizeof(detail), fmt, ap);
		va_end(ap);
	} else {
		detail[0] = '\0';
	}
	return err;
}

void
sim_detail_append(const char *fmt, ...)
{
	size_t len = strlen(detail);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail + len, sizeof(detail) - len, fmt, ap);
	va_end(ap);
}

void
sim_detail_prefix(const char *fmt, ...)
{
	char head[512];
	size_t hl, len = strlen(detail);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(head, sizeof(head), fmt, ap);
	va_end(ap);
	hl = strlen(head);
	if (hl + len >= sizeof(detail))
		len = sizeof(detail) - hl - 1;
	memmove(detail + hl, detail, len);
	memcpy(detail, head, hl);
	detail[hl + len] = '\0';
}

cudaError_t
sim_sticky(void)
{
	return sticky;
}

void
sim_error_reset(void)
{
	last = sticky = cudaSuccess;
	detail[0] = '\0';
}

cudaError_t
cudaGetLastError(void)
{
	cudaError_t err = sticky ? sticky : last;

	last = cudaSuccess;
	return err;
}

cudaError_t
cudaPeekAtLastError(void)
{
	return sticky ? sticky : last;
}

const char *
cudasimLastErrorDetail(void)
{
	return detail;
}

static const struct {
	cudaError_t err;
	const char *name, *text;
} errors[] = {
	{ cudaSuccess, "cudaSuccess", "no error" },
	{ cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument" },
	{ cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory" },
	{ cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error" },
	{ cudaErrorCudartUnloading, "cudaErrorCudartUnloading", "driver shutting down" },
	{ cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument" },
	{ cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument" },
	{ cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol" },
	{ cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer" },
	{ cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer" },
	{ cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy" },
	{ cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration", "__global__ function call is not configured" },
	{ cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function" },
	{ cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected" },
	{ cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal" },
	{ cudaErrorInvalidKernelImage, "cudaErrorInvalidKernelImage", "device kernel image is invalid" },
	{ cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device" },
	{ cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle" },
	{ cudaErrorNotReady, "cudaErrorNotReady", "device not ready" },
	{ cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered" },
	{ cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch" },
	{ cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated" },
	{ cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered" },
	{ cudaErrorHardwareStackError, "cudaErrorHardwareStackError", "hardware stack error" },
	{ cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction", "an illegal instruction was encountered" },
	{ cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address" },
	{ cudaErrorInvalidAddressSpace, "cudaErrorInvalidAddressSpace", "operation not supported on global/shared address space" },
	{ cudaErrorInvalidPc, "cudaErrorInvalidPc", "invalid program counter" },
	{ cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure" },
	{ cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch" },
	{ cudaErrorNotPermitted, "cudaErrorNotPermitted", "operation not permitted" },
	{ cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported" },
	{ cudaErrorUnknown, "cudaErrorUnknown", "unknown error" },
};

const char *
cudaGetErrorName(cudaError_t error)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
		if (errors[i].err == error)
			return errors[i].name;
	return "cudaErrorUnknown";
}

const char *
cudaGetErrorString(cudaError_t error)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
		if (errors[i].err == error)
			return errors[i].text;
	return "unrecognized error code";
}
