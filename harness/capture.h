/*
 * The capture process's parts (GPU only; harness/capture.cpp says what it
 * is): the CUDA runtime's own entry points, found before the sandbox
 * (capture_runtime.cpp, which also defines the ones the submission binds
 * to), and the plan being recorded from them (capture_plan.cpp). Private
 * to the three files of the capture process.
 */
#ifndef CUDALINGS_CAPTURE_H
#define CUDALINGS_CAPTURE_H

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <stddef.h>
#include <stdint.h>
#include <vector>

extern "C" {
#include "harness/plan.h"
}

/* ------------------------------------------------------------ the runtime's own entry points */

typedef cudaError_t launch_stub_fn(cudaKernel_t, dim3, dim3, void **, size_t, cudaStream_t);
typedef cudaError_t launch_fn(const void *, dim3, dim3, void **, size_t, cudaStream_t);

struct capture_runtime {
	launch_stub_fn *launch_stub; /* __cudaLaunchKernel: what <<<>>> compiles to (CUDA 13) */
	launch_fn *launch, *launch_cooperative;
	cudaError_t (*launch_ex)(const cudaLaunchConfig_t *, const void *, void **);
	cudaError_t (*malloc)(void **, size_t);
	cudaError_t (*malloc_async)(void **, size_t, cudaStream_t);
	cudaError_t (*free)(void *);
	cudaError_t (*free_async)(void *, cudaStream_t);
	cudaError_t (*memset)(void *, int, size_t);
	cudaError_t (*memset_async)(void *, int, size_t, cudaStream_t);
	cudaError_t (*to_symbol)(const void *, const void *, size_t, size_t, cudaMemcpyKind);
	cudaError_t (*to_symbol_async)(const void *, const void *, size_t, size_t, cudaMemcpyKind, cudaStream_t);
	cudaError_t (*set_attribute)(const void *, cudaFuncAttribute, int);
	cudaError_t (*device_sync)(void);
	cudaError_t (*stream_sync)(cudaStream_t);
	void (*register_var)(void **, char *, char *, const char *, int, size_t, int, int);
	CUresult (*kernel_name)(const char **, CUkernel);
	CUresult (*kernel_param)(CUkernel, size_t, size_t *, size_t *);
};
/* The runtime's own, which the harness calls and every recording entry point passes on to. */
extern struct capture_runtime capture_real;

/* Find them all (dlsym(RTLD_NEXT), before the sandbox): false where the runtime lacks one. */
bool capture_find_runtime(void);

/* ------------------------------------------------------------ the plan being recorded */

/* Device memory the plan may name: the case's buffers and the submission's own allocations. */
struct region {
	unsigned char *base;
	size_t bytes;
	struct plan_ref ref; /* offset 0 */
	bool live;
};

struct capture_recording {
	bool on;                       /* the submission's code is running: its calls are recorded */
	std::vector<unsigned char> plan;
	std::vector<region> regions;   /* case buffers first, then the submission's allocations by id */
	int nbuffers;
	uint32_t nown;
	bool refused;                  /* one refusal per case says it all */
};
extern struct capture_recording capture_rec;

void capture_add_record(uint32_t kind, const void *body, size_t n, const void *tail = NULL, size_t tail_n = 0);
/* The case's one refusal, saying what the submission did that a plan cannot carry. */
void capture_refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The kernel a launch's func names, or NULL. */
cudaKernel_t capture_kernel_of(const void *func);

/* What each recording entry point records, while capture_rec.on. */
void capture_record_launch(cudaKernel_t k, dim3 grid, dim3 block, void **args, size_t shared, bool cooperative);
void capture_record_memset(void *p, int value, size_t bytes);
/* A successful allocation becomes the plan's; a failed one is the replay's error there, as it was here. */
cudaError_t capture_record_alloc_result(cudaError_t e, void *p, size_t bytes);
/* Whether p may be freed: one of the submission's live allocations (recorded), or nothing. */
bool capture_record_free(void *p);
void capture_record_symbol(const void *symbol, const void *src, size_t bytes, size_t offset, cudaMemcpyKind kind);
void capture_record_attribute(const void *func, cudaFuncAttribute attribute, int value);
/* A __device__ or __constant__ variable the submission registers, by its host shadow. */
void capture_record_variable(const void *host, const char *name, size_t bytes, bool constant);

#endif
