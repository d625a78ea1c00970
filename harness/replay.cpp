/*
 * Replaying launch plans in the measuring process (GPU only). The
 * submission's device code arrives as a fatbinary, loaded as data with
 * cuLibraryLoadData: no host code of the submission's is ever mapped here.
 * Each plan, checked by the grader, is checked again (harness/plan.c) and
 * then against that code: every kernel and symbol it names must be the
 * code's, every launch's argument bytes laid out as the kernel's
 * parameters. A replay makes the case's device addresses from the plan's
 * regions, allocates the submission's own memory the first time a plan
 * asks, and launches by name with the driver API on the default stream,
 * where the harness's events are recorded.
 */
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <vector>

extern "C" {
#include "harness/plan.h"
#include "harness/replay.h"
}

static CUlibrary library;
static std::vector<unsigned char> plans[CASES_MAX];
static bool have_plan[CASES_MAX];
/* per case, each launch's and attribute's function, in record order */
static std::vector<CUfunction> functions[CASES_MAX];
static void *own[PLAN_MAX_ALLOCATIONS];
/* the __device__ variables the plans pass on, by number: their addresses in this process */
static CUdeviceptr variables[PLAN_MAX_VARIABLES];

/*
 * What the replays wrote to each __constant__ variable, byte by byte, and which bytes: a launcher that
 * copies a constant when the size changes copies it in its first call at a size, which every round
 * replays; a copy of what no kernel can have changed is left out, as the launcher itself would.
 */
struct constant_copy {
	std::string name;
	std::vector<unsigned char> bytes;
	std::vector<bool> known;
};
static std::vector<constant_copy> constants;

/* Whether [offset, offset + n) of the constant `name` holds `data` already; records it as written if not. */
static bool
constant_holds(const char *name, size_t size, uint64_t offset, const unsigned char *data, uint64_t n)
{
	constant_copy *c = NULL;
	for (constant_copy &x : constants)
		if (x.name == name)
			c = &x;
	if (!c) {
		constants.push_back({ name, std::vector<unsigned char>(size), std::vector<bool>(size, false) });
		c = &constants.back();
	}
	bool same = true;
	for (uint64_t i = 0; i < n && same; i++)
		same = c->known[offset + i] && c->bytes[offset + i] == data[i];
	for (uint64_t i = 0; i < n && !same; i++)
		c->bytes[offset + i] = data[i], c->known[offset + i] = true;
	return same;
}

/* Say why in *why and give -1: every refusal here is a sentence of the verdict's. */
#define refuse(why, size, ...) (snprintf(why, size, __VA_ARGS__), -1)

static bool
read_whole(const char *path, std::vector<unsigned char> *out)
{
	FILE *f = path ? fopen(path, "rb") : NULL;
	if (!f)
		return false;
	unsigned char chunk[1 << 16];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		out->insert(out->end(), chunk, chunk + n);
	bool ok = !ferror(f);
	fclose(f);
	return ok;
}

/* The kernel `name` of the submission's code, with its parameters checked against a launch's; NULL after *why. */
static CUfunction
function_of(const char *name, const struct plan_launch *l, char *why, size_t size)
{
	CUkernel k;
	CUfunction f;
	if (cuLibraryGetKernel(&k, library, name) != CUDA_SUCCESS || cuKernelGetFunction(&f, k) != CUDA_SUCCESS) {
		refuse(why, size, "the plan names a kernel its file does not define (%.200s)", name);
		return NULL;
	}
	if (!l)
		return f;
	const struct plan_param *params = (const struct plan_param *)(l + 1);
	size_t offset, bytes, n = 0;
	for (; cuKernelGetParamInfo(k, n, &offset, &bytes) == CUDA_SUCCESS; n++)
		if (n >= l->nparams || params[n].offset != offset || params[n].size != bytes)
			break;
	if (n != l->nparams || cuKernelGetParamInfo(k, n, &offset, &bytes) == CUDA_SUCCESS) {
		refuse(why, size, "the plan's arguments for %.200s are not laid out as its parameters", name);
		return NULL;
	}
	return f;
}

/* Check case `index`'s plan against the code, and find its functions. */
static int
resolve(int index, char *why, size_t size)
{
	const std::vector<unsigned char> &p = plans[index];
	for (const struct plan_record *r = NULL; (r = plan_next(p.data(), p.size(), r));) {
		if (r->kind == PLAN_LAUNCH || r->kind == PLAN_ATTRIBUTE) {
			const struct plan_launch *l = r->kind == PLAN_LAUNCH ? (const struct plan_launch *)(r + 1) : NULL;
			const char *name = l ? l->name : ((const struct plan_attribute *)(r + 1))->name;
			CUfunction f = function_of(name, l, why, size);
			if (!f)
				return -1;
			functions[index].push_back(f);
		} else if (r->kind == PLAN_VARIABLE) {
			const struct plan_variable *v = (const struct plan_variable *)(r + 1);
			size_t bytes;
			if (cuLibraryGetGlobal(&variables[v->id], &bytes, library, v->name) != CUDA_SUCCESS || bytes < v->bytes)
				return refuse(why, size, "the plan names a __device__ variable its file does not define as "
					      "such (%.200s)", v->name);
		} else if (r->kind == PLAN_SYMBOL) {
			const struct plan_symbol *y = (const struct plan_symbol *)(r + 1);
			CUdeviceptr at;
			size_t bytes;
			if (cuLibraryGetGlobal(&at, &bytes, library, y->name) != CUDA_SUCCESS || y->offset > bytes ||
			    y->bytes > bytes - y->offset)
				return refuse(why, size, "the plan copies to a variable its file does not define as such (%.200s)",
					    y->name);
		}
	}
	return 0;
}

int
replay_open(const struct run_config *cfg, char *why, size_t size)
{
	std::vector<unsigned char> code, file;
	if (!read_whole(cfg->device_code, &code) || code.size() < 16)
		return refuse(why, size, "the submission's device code could not be read (%s)",
			    cfg->device_code ? cfg->device_code : "no --device-code given");
	/* cuKernelGetFunction gives a kernel's function in the current context: a run under a GPU tool
	   without a go (--profile, --lines, the sanitizer) has made none yet, and every kernel would be
	   called missing; the runtime's primary context is the one the replayed launches run in */
	cudaFree(0);
	CUresult e = cuLibraryLoadData(&library, code.data(), NULL, NULL, 0, NULL, NULL, 0);
	if (e != CUDA_SUCCESS) {
		const char *text = "";
		cuGetErrorString(e, &text);
		return refuse(why, size, "the submission's device code could not be loaded: %s", text);
	}
	if (!read_whole(cfg->plans, &file))
		return refuse(why, size, "the launcher's plans could not be read (%s)", cfg->plans ? cfg->plans : "no --plans given");
	struct plan_state st;
	memset(&st, 0, sizeof(st));
	/* in the file's order, which is the capture's: allocations carry over from one case to the next */
	for (size_t at = 0; at + sizeof(struct plan_file_entry) <= file.size();) {
		struct plan_file_entry h;
		memcpy(&h, &file[at], sizeof(h));
		at += sizeof(h);
		if (h.case_index >= CASES_MAX || have_plan[h.case_index] || h.length > file.size() - at)
			return refuse(why, size, "the plans file is torn");
		/* a GPU tool's run of the correctness cases alone: the plans after them are not this run's */
		if (h.case_index >= (uint32_t)cfg->ncases)
			break;
		struct check_case c;
		cases_describe(cfg, (int)h.case_index, &c);
		st.nbuffers = c.nbuffers;
		for (int k = 0; k < c.nbuffers; k++)
			st.buffer_bytes[k] = check_bytes(&c.spec[k]);
		std::vector<unsigned char> &p = plans[h.case_index];
		p.assign(file.begin() + (long)at, file.begin() + (long)(at + h.length));
		at += h.length;
		if (plan_check(p.data(), p.size(), &st, why, size) || resolve((int)h.case_index, why, size))
			return -1;
		have_plan[h.case_index] = true;
	}
	return 0;
}

int
replay_has(int index)
{
	return index >= 0 && index < CASES_MAX && have_plan[index];
}

static void *
address(const struct plan_ref *r, void *const *dev)
{
	void *base = r->region == PLAN_CASE_BUFFER ? dev[r->index]
		     : r->region == PLAN_OWN	 ? own[r->index]
						 : (void *)(uintptr_t)variables[r->index];
	return (unsigned char *)base + r->offset;
}

static cudaError_t
launch(const struct plan_launch *l, CUfunction f, void *const *dev)
{
	const struct plan_param *params = (const struct plan_param *)(l + 1);
	const struct plan_reloc *relocs = (const struct plan_reloc *)(params + l->nparams);
	unsigned char args[PLAN_MAX_ARGS + 8];
	void *pointers[PLAN_MAX_PARAMS];
	memcpy(args, relocs + l->nrelocs, l->args_bytes);
	for (uint32_t i = 0; i < l->nrelocs; i++) {
		void *p = address(&relocs[i].to, dev);
		memcpy(args + relocs[i].at, &p, sizeof(p));
	}
	for (uint32_t i = 0; i < l->nparams; i++)
		pointers[i] = args + params[i].offset;
	CUlaunchConfig config;
	CUlaunchAttribute cooperative;
	memset(&config, 0, sizeof(config));
	config.gridDimX = l->grid[0], config.gridDimY = l->grid[1], config.gridDimZ = l->grid[2];
	config.blockDimX = l->block[0], config.blockDimY = l->block[1], config.blockDimZ = l->block[2];
	config.sharedMemBytes = l->shared_bytes;
	config.hStream = NULL; /* the legacy default stream: the harness's events are recorded there */
	if (l->cooperative) {
		cooperative.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
		cooperative.value.cooperative = 1;
		config.attrs = &cooperative;
		config.numAttrs = 1;
	}
	/* the driver's error numbers are the runtime's for every error a launch gives */
	return (cudaError_t)cuLaunchKernelEx(&config, f, pointers, NULL);
}

cudaError_t
replay_case(int index, void *const *dev)
{
	if (!replay_has(index))
		return cudaErrorLaunchFailure;
	const std::vector<unsigned char> &p = plans[index];
	size_t next_function = 0;
	for (const struct plan_record *r = NULL; (r = plan_next(p.data(), p.size(), r));) {
		const void *body = r + 1;
		cudaError_t e = cudaSuccess;
		switch (r->kind) {
		case PLAN_ALLOC: {
			const struct plan_alloc *a = (const struct plan_alloc *)body;
			if (!own[a->id])
				e = cudaMalloc(&own[a->id], a->bytes);
			break;
		}
		case PLAN_FREE: {
			const struct plan_free *f = (const struct plan_free *)body;
			e = cudaFree(own[f->id]);
			own[f->id] = NULL;
			break;
		}
		case PLAN_MEMSET: {
			const struct plan_memset *m = (const struct plan_memset *)body;
			e = cudaMemsetAsync(address(&m->to, dev), (int)m->value, m->bytes, 0);
			break;
		}
		case PLAN_SYMBOL: {
			const struct plan_symbol *y = (const struct plan_symbol *)body;
			CUdeviceptr at;
			size_t bytes;
			e = (cudaError_t)cuLibraryGetGlobal(&at, &bytes, library, y->name);
			const unsigned char *data = (const unsigned char *)(y + 1);
			if (e == cudaSuccess && !(y->constant && constant_holds(y->name, bytes, y->offset, data, y->bytes)))
				e = cudaMemcpy((unsigned char *)(uintptr_t)at + y->offset, data, y->bytes, cudaMemcpyHostToDevice);
			break;
		}
		case PLAN_ATTRIBUTE: {
			const struct plan_attribute *t = (const struct plan_attribute *)body;
			e = (cudaError_t)cuFuncSetAttribute(functions[index][next_function++], (CUfunction_attribute)t->attribute,
							    t->value);
			break;
		}
		case PLAN_LAUNCH:
			e = launch((const struct plan_launch *)body, functions[index][next_function++], dev);
			break;
		case PLAN_SYNC:
			e = cudaDeviceSynchronize();
			break;
		case PLAN_FAILED:
			/* the error the launcher's process got, as its launch's: what it then launched ran without */
			e = (cudaError_t)((const struct plan_failed *)body)->error;
			break;
		}
		if (e != cudaSuccess)
			return e;
	}
	return cudaSuccess;
}
