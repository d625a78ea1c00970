/*
 * The plan being recorded in the capture process (harness/capture.cpp says
 * what the process is): what the submission's calls of the CUDA runtime
 * (capture_runtime.cpp) ask of the GPU, as records of harness/plan.h — its
 * launches with their arguments, its own allocations, memsets, copies to
 * symbols, function attributes, synchronisations — each device address
 * made a reference to a region the plan knows, or the case refused.
 */
#include "harness/capture.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct capture_recording capture_rec;

void
capture_add_record(uint32_t kind, const void *body, size_t n, const void *tail, size_t tail_n)
{
	size_t padded = (n + tail_n + 7) & ~(size_t)7;
	struct plan_record r = { kind, (uint32_t)padded };
	size_t at = capture_rec.plan.size();
	capture_rec.plan.resize(at + sizeof(r) + padded, 0);
	memcpy(&capture_rec.plan[at], &r, sizeof(r));
	if (n)
		memcpy(&capture_rec.plan[at + sizeof(r)], body, n);
	if (tail_n)
		memcpy(&capture_rec.plan[at + sizeof(r) + n], tail, tail_n);
}

void
capture_refuse(const char *fmt, ...)
{
	if (capture_rec.refused)
		return;
	capture_rec.refused = true;
	char text[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	capture_add_record(PLAN_REFUSED, text, strlen(text));
}

/* Whether p is device memory of this process (that the plan does not know, when find_region said no). */
static bool
is_device_memory(const void *p)
{
	cudaPointerAttributes a;
	if (!p || cudaPointerGetAttributes(&a, p) != cudaSuccess) {
		cudaGetLastError();
		return false;
	}
	return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
}

/* __device__ and __constant__ variables by their host shadows, as the submission registered them. */
struct variable {
	const void *host;
	const char *name;
	size_t bytes;
	bool constant;
	bool in_plan; /* a region, declared by a PLAN_VARIABLE record */
};
static std::vector<variable> variables;
static uint32_t nvariables;

static const region *
find_in_regions(const unsigned char *q, size_t bytes, bool past_end, struct plan_ref *ref)
{
	for (const region &r : capture_rec.regions)
		if (r.live && q >= r.base && (past_end ? q == r.base + r.bytes && !bytes
					      : q < r.base + r.bytes && bytes <= (size_t)(r.base + r.bytes - q))) {
			*ref = r.ref;
			ref->offset = (uint64_t)(q - r.base);
			return &r;
		}
	return NULL;
}

/* A __device__ variable holding q, made a region of the plan (cudaGetSymbolAddress passed it on): whether one was. */
static bool
variable_region(const unsigned char *q)
{
	for (variable &v : variables) {
		void *at = NULL;
		if (v.in_plan || cudaGetSymbolAddress(&at, v.host) != cudaSuccess) {
			cudaGetLastError();
			continue;
		}
		unsigned char *base = (unsigned char *)at;
		if (q < base || q > base + v.bytes || strlen(v.name) >= PLAN_NAME_MAX)
			continue;
		struct plan_variable d;
		memset(&d, 0, sizeof(d));
		d.id = nvariables++;
		d.bytes = v.bytes;
		strcpy(d.name, v.name);
		capture_add_record(PLAN_VARIABLE, &d, sizeof(d));
		capture_rec.regions.push_back({ base, v.bytes, { PLAN_DEVICE_VARIABLE, d.id, 0 }, true });
		v.in_plan = true;
		return true;
	}
	return false;
}

/*
 * The region holding [p, p + bytes), or NULL. An address one past a region's end counts (with no
 * bytes) only when no region starts there: the case's arrays may lie back to back.
 */
static const region *
find_region(const void *p, size_t bytes, struct plan_ref *ref)
{
	const unsigned char *q = (const unsigned char *)p;
	const region *r = find_in_regions(q, bytes, false, ref);
	if (!r)
		r = find_in_regions(q, bytes, true, ref);
	if (!r && capture_rec.on && is_device_memory(p) && variable_region(q))
		r = find_in_regions(q, bytes, false, ref) ? find_in_regions(q, bytes, false, ref)
							   : find_in_regions(q, bytes, true, ref);
	return r;
}

/* A kernel's mangled name, as the measuring process finds it in the same device code. */
static const char *
kernel_name(cudaKernel_t k)
{
	const char *name = NULL;
	if (capture_real.kernel_name(&name, (CUkernel)k) != CUDA_SUCCESS || !name)
		return NULL;
	return name;
}

cudaKernel_t
capture_kernel_of(const void *func)
{
	cudaKernel_t k = NULL;
	if (cudaGetKernel(&k, func) != cudaSuccess) {
		cudaGetLastError();
		return NULL;
	}
	return k;
}

void
capture_record_launch(cudaKernel_t k, dim3 grid, dim3 block, void **args, size_t shared, bool cooperative)
{
	const char *name = k ? kernel_name(k) : NULL;
	if (!name || strlen(name) >= PLAN_NAME_MAX) {
		capture_refuse("launched something that is not a kernel of its own file");
		return;
	}
	struct plan_launch l;
	memset(&l, 0, sizeof(l));
	strcpy(l.name, name);
	l.grid[0] = grid.x, l.grid[1] = grid.y, l.grid[2] = grid.z;
	l.block[0] = block.x, l.block[1] = block.y, l.block[2] = block.z;
	l.shared_bytes = shared > UINT32_MAX ? UINT32_MAX : (uint32_t)shared;
	l.cooperative = cooperative;
	std::vector<plan_param> params;
	size_t offset, size;
	/* A launch after the device failed (an earlier kernel's illegal address, say) is not recorded: the
	 * context is gone, so its parameters cannot be learnt, and the replay, running what came before,
	 * meets that same failure itself and says so (tests/adversarial/kernel_memcpy_host.cu). A kernel
	 * without parameters answers "invalid value" for the first. */
	CUresult first = capture_real.kernel_param((CUkernel)k, 0, &offset, &size);
	if (first != CUDA_SUCCESS && first != CUDA_ERROR_INVALID_VALUE)
		return;
	while (params.size() < PLAN_MAX_PARAMS &&
	       capture_real.kernel_param((CUkernel)k, params.size(), &offset, &size) == CUDA_SUCCESS) {
		params.push_back({ (uint32_t)offset, (uint32_t)size });
		if (offset + size > l.args_bytes)
			l.args_bytes = (uint32_t)(offset + size);
	}
	if (l.args_bytes > PLAN_MAX_ARGS) {
		capture_refuse("launched %.200s with more than %d bytes of arguments", name, PLAN_MAX_ARGS);
		return;
	}
	std::vector<unsigned char> bytes((l.args_bytes + 7u) & ~7u, 0);
	std::vector<plan_reloc> relocs;
	for (size_t i = 0; i < params.size(); i++) {
		memcpy(&bytes[params[i].offset], args[i], params[i].size);
		/* every aligned 8-byte word of an argument may be a device address: a pointer, or one in a struct */
		for (uint32_t at = (params[i].offset + 7u) & ~7u; at + 8 <= params[i].offset + params[i].size; at += 8) {
			void *word;
			memcpy(&word, &bytes[at], sizeof(word));
			struct plan_reloc r;
			memset(&r, 0, sizeof(r));
			r.at = at;
			if (find_region(word, 0, &r.to))
				relocs.push_back(r);
			else if (is_device_memory(word)) {
				capture_refuse("passed %.200s a pointer to device memory that is neither one of the case's arrays, "
				       "nor one it allocated with cudaMalloc, nor a __device__ variable of its file", name);
				return;
			}
		}
	}
	l.nparams = (uint32_t)params.size();
	l.nrelocs = (uint32_t)relocs.size();
	std::vector<unsigned char> tail;
	tail.insert(tail.end(), (unsigned char *)params.data(), (unsigned char *)(params.data() + params.size()));
	tail.insert(tail.end(), (unsigned char *)relocs.data(), (unsigned char *)(relocs.data() + relocs.size()));
	tail.insert(tail.end(), bytes.begin(), bytes.end());
	capture_add_record(PLAN_LAUNCH, &l, sizeof(l), tail.data(), tail.size());
}

void
capture_record_memset(void *p, int value, size_t bytes)
{
	struct plan_memset m;
	memset(&m, 0, sizeof(m));
	if (!find_region(p, bytes, &m.to)) {
		capture_refuse("set memory with cudaMemset that is neither one of the case's arrays nor one it allocated");
		return;
	}
	m.bytes = bytes;
	m.value = (uint32_t)(value & 0xff);
	capture_add_record(PLAN_MEMSET, &m, sizeof(m));
}

static void
record_alloc(void *p, size_t bytes)
{
	if (capture_rec.nown >= PLAN_MAX_ALLOCATIONS) {
		capture_refuse("made more than %d allocations", PLAN_MAX_ALLOCATIONS);
		return;
	}
	struct plan_alloc a = { capture_rec.nown, 0, bytes };
	region r = { (unsigned char *)p, bytes, { PLAN_OWN, capture_rec.nown, 0 }, true };
	capture_rec.regions.push_back(r);
	capture_rec.nown++;
	capture_add_record(PLAN_ALLOC, &a, sizeof(a));
}

/* A successful allocation becomes the plan's; a failed one is the replay's error there, as it was here. */
cudaError_t
capture_record_alloc_result(cudaError_t e, void *p, size_t bytes)
{
	if (!capture_rec.on)
		return e;
	if (e == cudaSuccess) {
		record_alloc(p, bytes);
	} else {
		struct plan_failed f = { (int32_t)e, 0 };
		capture_add_record(PLAN_FAILED, &f, sizeof(f));
	}
	return e;
}

/* Whether p may be freed: one of the submission's live allocations (recorded), or nothing. */
bool
capture_record_free(void *p)
{
	if (!p)
		return true;
	for (region &r : capture_rec.regions)
		if (r.live && r.base == p && r.ref.region == PLAN_OWN) {
			r.live = false;
			struct plan_free f = { r.ref.index, 0 };
			capture_add_record(PLAN_FREE, &f, sizeof(f));
			return true;
		}
	capture_refuse("freed memory it did not allocate (one of the case's arrays?)");
	return false;
}

void
capture_record_symbol(const void *symbol, const void *src, size_t bytes, size_t offset, cudaMemcpyKind kind)
{
	const variable *v = NULL;
	for (const variable &x : variables)
		if (x.host == symbol)
			v = &x;
	if (!v || strlen(v->name) >= PLAN_NAME_MAX) {
		capture_refuse("copied to a symbol that is not a __device__ or __constant__ variable of its own file");
		return;
	}
	if ((kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDefault) || is_device_memory(src)) {
		capture_refuse("copied device memory to %.200s: only constants from the host may be copied to a symbol", v->name);
		return;
	}
	if (offset > v->bytes || bytes > v->bytes - offset || bytes > (64u << 10)) {
		capture_refuse("copied %zu bytes at offset %zu to %.200s, which has %zu", bytes, offset, v->name, v->bytes);
		return;
	}
	struct plan_symbol y;
	memset(&y, 0, sizeof(y));
	strcpy(y.name, v->name);
	y.offset = offset;
	y.bytes = bytes;
	y.constant = v->constant;
	capture_add_record(PLAN_SYMBOL, &y, sizeof(y), src, bytes);
}

void
capture_record_attribute(const void *func, cudaFuncAttribute attribute, int value)
{
	cudaKernel_t k = capture_kernel_of(func);
	const char *name = k ? kernel_name(k) : NULL;
	if (!name || strlen(name) >= PLAN_NAME_MAX) {
		capture_refuse("set an attribute of something that is not a kernel of its own file");
		return;
	}
	struct plan_attribute t;
	memset(&t, 0, sizeof(t));
	strcpy(t.name, name);
	t.attribute = (int32_t)attribute;
	t.value = value;
	capture_add_record(PLAN_ATTRIBUTE, &t, sizeof(t));
}

void
capture_record_variable(const void *host, const char *name, size_t bytes, bool constant)
{
	variables.push_back({ host, name, bytes, constant, false });
}
