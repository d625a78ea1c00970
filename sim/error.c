/*
 * error.c — the CUDA error state: the last error, sticky errors after a
 * fault (every later call fails with it, as on a GPU whose context is
 * corrupted), the names and strings, and the plain-words detail.
 *
 * Layer 0 (current_launch.c says what the layers are): calls nothing of the simulator's.
 */
#include "lib/util.h"
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
	{ cudaErrorProfilerDisabled, "cudaErrorProfilerDisabled", "profiler disabled" },
	{ cudaErrorProfilerNotInitialized, "cudaErrorProfilerNotInitialized", "profiler not initialized" },
	{ cudaErrorProfilerAlreadyStarted, "cudaErrorProfilerAlreadyStarted", "profiler already started" },
	{ cudaErrorProfilerAlreadyStopped, "cudaErrorProfilerAlreadyStopped", "profiler already stopped" },
	{ cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument" },
	{ cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument" },
	{ cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol" },
	{ cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer" },
	{ cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer" },
	{ cudaErrorInvalidTexture, "cudaErrorInvalidTexture", "invalid texture" },
	{ cudaErrorInvalidTextureBinding, "cudaErrorInvalidTextureBinding", "invalid texture binding" },
	{ cudaErrorInvalidChannelDescriptor, "cudaErrorInvalidChannelDescriptor", "invalid channel descriptor" },
	{ cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy" },
	{ cudaErrorAddressOfConstant, "cudaErrorAddressOfConstant", "address of constant" },
	{ cudaErrorTextureFetchFailed, "cudaErrorTextureFetchFailed", "texture fetch failed" },
	{ cudaErrorTextureNotBound, "cudaErrorTextureNotBound", "texture not bound" },
	{ cudaErrorSynchronizationError, "cudaErrorSynchronizationError", "synchronization error" },
	{ cudaErrorInvalidFilterSetting, "cudaErrorInvalidFilterSetting", "invalid filter setting" },
	{ cudaErrorInvalidNormSetting, "cudaErrorInvalidNormSetting", "invalid norm setting" },
	{ cudaErrorMixedDeviceExecution, "cudaErrorMixedDeviceExecution", "mixed device execution" },
	{ cudaErrorNotYetImplemented, "cudaErrorNotYetImplemented", "not yet implemented" },
	{ cudaErrorMemoryValueTooLarge, "cudaErrorMemoryValueTooLarge", "memory value too large" },
	{ cudaErrorStubLibrary, "cudaErrorStubLibrary", "stub library" },
	{ cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver", "insufficient driver" },
	{ cudaErrorCallRequiresNewerDriver, "cudaErrorCallRequiresNewerDriver", "call requires newer driver" },
	{ cudaErrorInvalidSurface, "cudaErrorInvalidSurface", "invalid surface" },
	{ cudaErrorDuplicateVariableName, "cudaErrorDuplicateVariableName", "duplicate variable name" },
	{ cudaErrorDuplicateTextureName, "cudaErrorDuplicateTextureName", "duplicate texture name" },
	{ cudaErrorDuplicateSurfaceName, "cudaErrorDuplicateSurfaceName", "duplicate surface name" },
	{ cudaErrorDevicesUnavailable, "cudaErrorDevicesUnavailable", "devices unavailable" },
	{ cudaErrorIncompatibleDriverContext, "cudaErrorIncompatibleDriverContext", "incompatible driver context" },
	{ cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration", "__global__ function call is not configured" },
	{ cudaErrorPriorLaunchFailure, "cudaErrorPriorLaunchFailure", "prior launch failure" },
	{ cudaErrorLaunchMaxDepthExceeded, "cudaErrorLaunchMaxDepthExceeded", "launch max depth exceeded" },
	{ cudaErrorLaunchFileScopedTex, "cudaErrorLaunchFileScopedTex", "launch file scoped tex" },
	{ cudaErrorLaunchFileScopedSurf, "cudaErrorLaunchFileScopedSurf", "launch file scoped surf" },
	{ cudaErrorSyncDepthExceeded, "cudaErrorSyncDepthExceeded", "sync depth exceeded" },
	{ cudaErrorLaunchPendingCountExceeded, "cudaErrorLaunchPendingCountExceeded", "launch pending count exceeded" },
	{ cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function" },
	{ cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected" },
	{ cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal" },
	{ cudaErrorDeviceNotLicensed, "cudaErrorDeviceNotLicensed", "device not licensed" },
	{ cudaErrorSoftwareValidityNotEstablished, "cudaErrorSoftwareValidityNotEstablished", "software validity not established" },
	{ cudaErrorStartupFailure, "cudaErrorStartupFailure", "startup failure" },
	{ cudaErrorInvalidKernelImage, "cudaErrorInvalidKernelImage", "device kernel image is invalid" },
	{ cudaErrorDeviceUninitialized, "cudaErrorDeviceUninitialized", "device uninitialized" },
	{ cudaErrorMapBufferObjectFailed, "cudaErrorMapBufferObjectFailed", "map buffer object failed" },
	{ cudaErrorUnmapBufferObjectFailed, "cudaErrorUnmapBufferObjectFailed", "unmap buffer object failed" },
	{ cudaErrorArrayIsMapped, "cudaErrorArrayIsMapped", "array is mapped" },
	{ cudaErrorAlreadyMapped, "cudaErrorAlreadyMapped", "already mapped" },
	{ cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device" },
	{ cudaErrorAlreadyAcquired, "cudaErrorAlreadyAcquired", "already acquired" },
	{ cudaErrorNotMapped, "cudaErrorNotMapped", "not mapped" },
	{ cudaErrorNotMappedAsArray, "cudaErrorNotMappedAsArray", "not mapped as array" },
	{ cudaErrorNotMappedAsPointer, "cudaErrorNotMappedAsPointer", "not mapped as pointer" },
	{ cudaErrorECCUncorrectable, "cudaErrorECCUncorrectable", "eccuncorrectable" },
	{ cudaErrorUnsupportedLimit, "cudaErrorUnsupportedLimit", "unsupported limit" },
	{ cudaErrorDeviceAlreadyInUse, "cudaErrorDeviceAlreadyInUse", "device already in use" },
	{ cudaErrorPeerAccessUnsupported, "cudaErrorPeerAccessUnsupported", "peer access unsupported" },
	{ cudaErrorInvalidPtx, "cudaErrorInvalidPtx", "invalid ptx" },
	{ cudaErrorInvalidGraphicsContext, "cudaErrorInvalidGraphicsContext", "invalid graphics context" },
	{ cudaErrorNvlinkUncorrectable, "cudaErrorNvlinkUncorrectable", "nvlink uncorrectable" },
	{ cudaErrorJitCompilerNotFound, "cudaErrorJitCompilerNotFound", "jit compiler not found" },
	{ cudaErrorUnsupportedPtxVersion, "cudaErrorUnsupportedPtxVersion", "unsupported ptx version" },
	{ cudaErrorJitCompilationDisabled, "cudaErrorJitCompilationDisabled", "jit compilation disabled" },
	{ cudaErrorUnsupportedExecAffinity, "cudaErrorUnsupportedExecAffinity", "unsupported exec affinity" },
	{ cudaErrorUnsupportedDevSideSync, "cudaErrorUnsupportedDevSideSync", "unsupported dev side sync" },
	{ cudaErrorContained, "cudaErrorContained", "contained" },
	{ cudaErrorInvalidSource, "cudaErrorInvalidSource", "invalid source" },
	{ cudaErrorFileNotFound, "cudaErrorFileNotFound", "file not found" },
	{ cudaErrorSharedObjectSymbolNotFound, "cudaErrorSharedObjectSymbolNotFound", "shared object symbol not found" },
	{ cudaErrorSharedObjectInitFailed, "cudaErrorSharedObjectInitFailed", "shared object init failed" },
	{ cudaErrorOperatingSystem, "cudaErrorOperatingSystem", "operating system" },
	{ cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle" },
	{ cudaErrorIllegalState, "cudaErrorIllegalState", "illegal state" },
	{ cudaErrorLossyQuery, "cudaErrorLossyQuery", "lossy query" },
	{ cudaErrorSymbolNotFound, "cudaErrorSymbolNotFound", "symbol not found" },
	{ cudaErrorNotReady, "cudaErrorNotReady", "device not ready" },
	{ cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered" },
	{ cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch" },
	{ cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated" },
	{ cudaErrorLaunchIncompatibleTexturing, "cudaErrorLaunchIncompatibleTexturing", "launch incompatible texturing" },
	{ cudaErrorPeerAccessAlreadyEnabled, "cudaErrorPeerAccessAlreadyEnabled", "peer access already enabled" },
	{ cudaErrorPeerAccessNotEnabled, "cudaErrorPeerAccessNotEnabled", "peer access not enabled" },
	{ cudaErrorSetOnActiveProcess, "cudaErrorSetOnActiveProcess", "set on active process" },
	{ cudaErrorContextIsDestroyed, "cudaErrorContextIsDestroyed", "context is destroyed" },
	{ cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered" },
	{ cudaErrorTooManyPeers, "cudaErrorTooManyPeers", "too many peers" },
	{ cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered", "host memory already registered" },
	{ cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered", "host memory not registered" },
	{ cudaErrorHardwareStackError, "cudaErrorHardwareStackError", "hardware stack error" },
	{ cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction", "an illegal instruction was encountered" },
	{ cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address" },
	{ cudaErrorInvalidAddressSpace, "cudaErrorInvalidAddressSpace", "operation not supported on global/shared address space" },
	{ cudaErrorInvalidPc, "cudaErrorInvalidPc", "invalid program counter" },
	{ cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure" },
	{ cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch" },
	{ cudaErrorTensorMemoryLeak, "cudaErrorTensorMemoryLeak", "tensor memory leak" },
	{ cudaErrorNotPermitted, "cudaErrorNotPermitted", "operation not permitted" },
	{ cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported" },
	{ cudaErrorSystemNotReady, "cudaErrorSystemNotReady", "system not ready" },
	{ cudaErrorSystemDriverMismatch, "cudaErrorSystemDriverMismatch", "system driver mismatch" },
	{ cudaErrorCompatNotSupportedOnDevice, "cudaErrorCompatNotSupportedOnDevice", "compat not supported on device" },
	{ cudaErrorMpsConnectionFailed, "cudaErrorMpsConnectionFailed", "mps connection failed" },
	{ cudaErrorMpsRpcFailure, "cudaErrorMpsRpcFailure", "mps rpc failure" },
	{ cudaErrorMpsServerNotReady, "cudaErrorMpsServerNotReady", "mps server not ready" },
	{ cudaErrorMpsMaxClientsReached, "cudaErrorMpsMaxClientsReached", "mps max clients reached" },
	{ cudaErrorMpsMaxConnectionsReached, "cudaErrorMpsMaxConnectionsReached", "mps max connections reached" },
	{ cudaErrorMpsClientTerminated, "cudaErrorMpsClientTerminated", "mps client terminated" },
	{ cudaErrorCdpNotSupported, "cudaErrorCdpNotSupported", "cdp not supported" },
	{ cudaErrorCdpVersionMismatch, "cudaErrorCdpVersionMismatch", "cdp version mismatch" },
	{ cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported", "stream capture unsupported" },
	{ cudaErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated", "stream capture invalidated" },
	{ cudaErrorStreamCaptureMerge, "cudaErrorStreamCaptureMerge", "stream capture merge" },
	{ cudaErrorStreamCaptureUnmatched, "cudaErrorStreamCaptureUnmatched", "stream capture unmatched" },
	{ cudaErrorStreamCaptureUnjoined, "cudaErrorStreamCaptureUnjoined", "stream capture unjoined" },
	{ cudaErrorStreamCaptureIsolation, "cudaErrorStreamCaptureIsolation", "stream capture isolation" },
	{ cudaErrorStreamCaptureImplicit, "cudaErrorStreamCaptureImplicit", "stream capture implicit" },
	{ cudaErrorCapturedEvent, "cudaErrorCapturedEvent", "captured event" },
	{ cudaErrorStreamCaptureWrongThread, "cudaErrorStreamCaptureWrongThread", "stream capture wrong thread" },
	{ cudaErrorTimeout, "cudaErrorTimeout", "timeout" },
	{ cudaErrorGraphExecUpdateFailure, "cudaErrorGraphExecUpdateFailure", "graph exec update failure" },
	{ cudaErrorExternalDevice, "cudaErrorExternalDevice", "external device" },
	{ cudaErrorInvalidClusterSize, "cudaErrorInvalidClusterSize", "invalid cluster size" },
	{ cudaErrorFunctionNotLoaded, "cudaErrorFunctionNotLoaded", "function not loaded" },
	{ cudaErrorInvalidResourceType, "cudaErrorInvalidResourceType", "invalid resource type" },
	{ cudaErrorInvalidResourceConfiguration, "cudaErrorInvalidResourceConfiguration", "invalid resource configuration" },
	{ cudaErrorUnknown, "cudaErrorUnknown", "unknown error" },
};

const char *
cudaGetErrorName(cudaError_t error)
{
	for (size_t i = 0; i < ARRAY_SIZE(errors); i++)
		if (errors[i].err == error)
			return errors[i].name;
	return "cudaErrorUnknown";
}

const char *
cudaGetErrorString(cudaError_t error)
{
	for (size_t i = 0; i < ARRAY_SIZE(errors); i++)
		if (errors[i].err == error)
			return errors[i].text;
	return "unrecognized error code";
}
