/*
 * A launch plan: what a submission's launcher asked of the GPU for one case,
 * recorded in the capture process (harness/capture.cpp, which runs the
 * submission's host code) and replayed in the measuring process
 * (harness/replay.cpp, which runs none of it). The grader checks every plan
 * (plan_check) before the measuring process sees it; the measuring process
 * checks it again against the submission's device code (kernel and symbol
 * names, argument layouts).
 *
 * A plan is data only: records of a fixed header and `length` bytes, in the
 * order the launcher made the calls. Device memory is never named by its
 * address in the capture process but as a region and an offset: one of the
 * case's buffers (which the measuring process allocates), one of the
 * submission's own allocations (numbered in the order it made them, over
 * the whole capture: a scratch buffer kept across calls keeps its number),
 * or a __device__ variable of its code, by name.
 */
#ifndef CUDALINGS_PLAN_H
#define CUDALINGS_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include "harness/protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PLAN_NAME_MAX 512          /* a kernel's or a symbol's mangled name, NUL included */
#define PLAN_MAX_RECORDS 4096      /* per case */
#define PLAN_MAX_BYTES (4u << 20)  /* per case, the bytes copied to symbols included */
#define PLAN_MAX_ALLOCATIONS 256   /* over the whole capture */
#define PLAN_MAX_VARIABLES 256     /* __device__ variables whose address a launch passes, over the whole capture */
#define PLAN_MAX_ARGS 32764        /* a kernel's parameters, in bytes (CUDA 12.1 and later) */
#define PLAN_MAX_PARAMS 512

enum plan_kind {
	PLAN_ALLOC = 1, /* struct plan_alloc: the submission's cudaMalloc (or cudaMallocAsync) */
	PLAN_FREE,      /* struct plan_free */
	PLAN_MEMSET,    /* struct plan_memset */
	PLAN_SYMBOL,    /* struct plan_symbol, then `bytes` bytes: cudaMemcpyToSymbol from the host */
	PLAN_ATTRIBUTE, /* struct plan_attribute: cudaFuncSetAttribute */
	PLAN_LAUNCH,    /* struct plan_launch, then params, relocations and the argument bytes */
	PLAN_SYNC,      /* no payload: cudaDeviceSynchronize or cudaStreamSynchronize */
	PLAN_REFUSED,   /* text: something the launcher did that a plan cannot carry */
	PLAN_VARIABLE,  /* struct plan_variable: a __device__ variable whose address the launcher passes on
			   (cudaGetSymbolAddress), numbered from 0 in the order first used */
	PLAN_FAILED,    /* struct plan_failed: an allocation of the launcher's failed; the replay fails there */
};

enum plan_region {
	PLAN_CASE_BUFFER = 1, /* index: the case's buffer, in the launcher's order */
	PLAN_OWN = 2,         /* index: the submission's allocation of that number */
	PLAN_DEVICE_VARIABLE = 3, /* index: the __device__ variable of that number (PLAN_VARIABLE) */
};

struct plan_record {
	uint32_t kind, length;
};

struct plan_ref {
	uint32_t region, index;
	uint64_t offset;
};

struct plan_alloc {
	uint32_t id, reserved;
	uint64_t bytes;
};

struct plan_free {
	uint32_t id, reserved;
};

struct plan_variable {
	uint32_t id, reserved;
	uint64_t bytes;
	char name[PLAN_NAME_MAX];
};

struct plan_failed {
	int32_t error, reserved; /* the runtime's error number (cudaErrorMemoryAllocation) */
};

struct plan_memset {
	struct plan_ref to;
	uint64_t bytes;
	uint32_t value, reserved;
};

struct plan_symbol {
	char name[PLAN_NAME_MAX];
	uint64_t offset, bytes;
	uint32_t constant, reserved; /* a __constant__ variable, which no kernel can change */
};

/* The function attributes a launcher may set: cudaFuncAttribute's numbers, which the driver's share. */
enum plan_attribute_id {
	PLAN_ATTR_MAX_DYNAMIC_SHARED = 8,
	PLAN_ATTR_SHARED_CARVEOUT = 9,
};

struct plan_attribute {
	char name[PLAN_NAME_MAX];
	int32_t attribute, value;
};

struct plan_param {
	uint32_t offset, size;
};

/* An 8-byte word of the arguments that is a device address: made again from a region on replay. */
struct plan_reloc {
	uint32_t at, reserved;
	struct plan_ref to;
};

struct plan_launch {
	char name[PLAN_NAME_MAX];
	uint32_t grid[3], block[3];
	uint32_t shared_bytes;
	uint32_t cooperative;
	uint32_t nparams, nrelocs, args_bytes, reserved;
	/* then struct plan_param[nparams], struct plan_reloc[nrelocs], args_bytes bytes */
};

/* The plans file the grader writes for the measuring process: per case, this header, then its plan. */
struct plan_file_entry {
	uint32_t case_index, reserved;
	uint64_t length;
};

/* The sizes a plan's references are checked against, and the allocations so far (updated by plan_check). */
struct plan_state {
	int nbuffers;
	uint64_t buffer_bytes[PROTO_MAX_BUFFERS];
	uint64_t own_bytes[PLAN_MAX_ALLOCATIONS]; /* by id; 0: none of that number */
	int live[PLAN_MAX_ALLOCATIONS];
	int nown;                                 /* ids handed out so far */
	uint64_t variable_bytes[PLAN_MAX_VARIABLES];
	int nvariables;
};

/*
 * Whether `n` bytes are a plan that may be replayed: well formed, within the
 * limits, every reference inside a case buffer or a live allocation of the
 * submission's, no refusal recorded. 0, or -1 with *why (the sentence a
 * verdict gives). `st` carries the allocations from one case's plan to the next.
 */
int plan_check(const void *plan, size_t n, struct plan_state *st, char *why, size_t why_size);

/* The records of a checked plan, one by one: returns the next, or NULL at the end. */
const struct plan_record *plan_next(const void *plan, size_t n, const struct plan_record *at);

#ifdef __cplusplus
}
#endif
#endif
