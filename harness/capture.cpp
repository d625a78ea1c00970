/*
 * The capture process (GPU only): the one process that runs the
 * submission's host code. It calls the launcher once per case, in the
 * order the measuring process first replays them, on stand-in buffers
 * (inputs zero, outputs poisoned), and records what the launcher asks of
 * the GPU as a plan (harness/plan.h): its launches, its own allocations,
 * memsets, copies to symbols, function attributes, synchronisations. It
 * sends the grader plans and nothing else that counts: no output, no
 * time. The launches run for real, so that the launcher sees errors,
 * occupancy and device properties as on any GPU.
 *
 * The recording is done by defining the CUDA runtime's entry points here:
 * the executable exports them (harness/capture.dynlist), so the
 * submission's shared object, loaded later, binds to them; each records,
 * then calls the runtime's own, found with dlsym(RTLD_NEXT) before the
 * sandbox. The harness's own calls go to the runtime's directly. Plain
 * C++ (not nvcc): these definitions would clash with the device runtime's.
 */
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <vector>

extern "C" {
#include "harness/cases.h"
#include "harness/gpu_open.h"
#include "harness/plan.h"
#include "harness/sandbox.h"
}

static struct run_config cfg;
static int channel;

/* ------------------------------------------------------------ the runtime's own entry points */

typedef cudaError_t launch_stub_fn(cudaKernel_t, dim3, dim3, void **, size_t, cudaStream_t);
typedef cudaError_t launch_fn(const void *, dim3, dim3, void **, size_t, cudaStream_t);

static struct {
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
} real;

#define FIND(field, name) (real.field = (decltype(real.field))dlsym(RTLD_NEXT, name))

static bool
find_runtime(void)
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
	       cudaGetDriverEntryPointByVersion("cuKernelGetName", (void **)&real.kernel_name, 12080, cudaEnableDefault,
						&q) == cudaSuccess && real.kernel_name &&
	       cudaGetDriverEntryPointByVersion("cuKernelGetParamInfo", (void **)&real.kernel_param, 12080,
						cudaEnableDefault, &q) == cudaSuccess && real.kernel_param;
}

/* ------------------------------------------------------------ the plan being recorded */

/* Device memory the plan may name: the case's buffers and the submission's own allocations. */
struct region {
	unsigned char *base;
	size_t bytes;
	struct plan_ref ref; /* offset 0 */
	bool live;
};

static struct {
	bool on;                       /* the submission's code is running: its calls are recorded */
	std::vector<unsigned char> plan;
	std::vector<region> regions;   /* case buffers first, then the submission's allocations by id */
	int nbuffers;
	uint32_t nown;
	bool refused;                  /* one refusal per case says it all */
} rec;

static void
add_record(uint32_t kind, const void *body, size_t n, const void *tail = NULL, size_t tail_n = 0)
{
	size_t padded = (n + tail_n + 7) & ~(size_t)7;
	struct plan_record r = { kind, (uint32_t)padded };
	size_t at = rec.plan.size();
	rec.plan.resize(at + sizeof(r) + padded, 0);
	memcpy(&rec.plan[at], &r, sizeof(r));
	if (n)
		memcpy(&rec.plan[at + sizeof(r)], body, n);
	if (tail_n)
		memcpy(&rec.plan[at + sizeof(r) + n], tail, tail_n);
}

static void
refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
refuse(const char *fmt, ...)
{
	if (rec.refused)
		return;
	rec.refused = true;
	char text[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	add_record(PLAN_REFUSED, text, strlen(text));
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
	for (const region &r : rec.regions)
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
		add_record(PLAN_VARIABLE, &d, sizeof(d));
		rec.regions.push_back({ base, v.bytes, { PLAN_DEVICE_VARIABLE, d.id, 0 }, true });
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
	if (!r && rec.on && is_device_memory(p) && variable_region(q))
		r = find_in_regions(q, bytes, false, ref) ? find_in_regions(q, bytes, false, ref)
							   : find_in_regions(q, bytes, true, ref);
	return r;
}

/* A kernel's mangled name, as the measuring process finds it in the same device code. */
static const char *
kernel_name(cudaKernel_t k)
{
	const char *name = NULL;
	if (real.kernel_name(&name, (CUkernel)k) != CUDA_SUCCESS || !name)
		return NULL;
	return name;
}

static cudaKernel_t
kernel_of(const void *func)
{
	cudaKernel_t k = NULL;
	if (cudaGetKernel(&k, func) != cudaSuccess) {
		cudaGetLastError();
		return NULL;
	}
	return k;
}

static void
record_launch(cudaKernel_t k, dim3 grid, dim3 block, void **args, size_t shared, bool cooperative)
{
	const char *name = k ? kernel_name(k) : NULL;
	if (!name || strlen(name) >= PLAN_NAME_MAX) {
		refuse("launched something that is not a kernel of its own file");
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
	while (params.size() < PLAN_MAX_PARAMS && real.kernel_param((CUkernel)k, params.size(), &offset, &size) == CUDA_SUCCESS) {
		params.push_back({ (uint32_t)offset, (uint32_t)size });
		if (offset + size > l.args_bytes)
			l.args_bytes = (uint32_t)(offset + size);
	}
	if (l.args_bytes > PLAN_MAX_ARGS) {
		refuse("launched %.200s with more than %d bytes of arguments", name, PLAN_MAX_ARGS);
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
				refuse("passed %.200s a pointer to device memory that is neither one of the case's arrays, "
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
	add_record(PLAN_LAUNCH, &l, sizeof(l), tail.data(), tail.size());
}

static void
record_memset(void *p, int value, size_t bytes)
{
	struct plan_memset m;
	memset(&m, 0, sizeof(m));
	if (!find_region(p, bytes, &m.to)) {
		refuse("set memory with cudaMemset that is neither one of the case's arrays nor one it allocated");
		return;
	}
	m.bytes = bytes;
	m.value = (uint32_t)(value & 0xff);
	add_record(PLAN_MEMSET, &m, sizeof(m));
}

static void
record_alloc(void *p, size_t bytes)
{
	if (rec.nown >= PLAN_MAX_ALLOCATIONS) {
		refuse("made more than %d allocations", PLAN_MAX_ALLOCATIONS);
		return;
	}
	struct plan_alloc a = { rec.nown, 0, bytes };
	region r = { (unsigned char *)p, bytes, { PLAN_OWN, rec.nown, 0 }, true };
	rec.regions.push_back(r);
	rec.nown++;
	add_record(PLAN_ALLOC, &a, sizeof(a));
}

/* Whether p may be freed: one of the submission's live allocations (recorded), or nothing. */
static bool
record_free(void *p)
{
	if (!p)
		return true;
	for (region &r : rec.regions)
		if (r.live && r.base == p && r.ref.region == PLAN_OWN) {
			r.live = false;
			struct plan_free f = { r.ref.index, 0 };
			add_record(PLAN_FREE, &f, sizeof(f));
			return true;
		}
	refuse("freed memory it did not allocate (one of the case's arrays?)");
	return false;
}

static void
record_symbol(const void *symbol, const void *src, size_t bytes, size_t offset, cudaMemcpyKind kind)
{
	const variable *v = NULL;
	for (const variable &x : variables)
		if (x.host == symbol)
			v = &x;
	if (!v || strlen(v->name) >= PLAN_NAME_MAX) {
		refuse("copied to a symbol that is not a __device__ or __constant__ variable of its own file");
		return;
	}
	if ((kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDefault) || is_device_memory(src)) {
		refuse("copied device memory to %.200s: only constants from the host may be copied to a symbol", v->name);
		return;
	}
	if (offset > v->bytes || bytes > v->bytes - offset || bytes > (64u << 10)) {
		refuse("copied %zu bytes at offset %zu to %.200s, which has %zu", bytes, offset, v->name, v->bytes);
		return;
	}
	struct plan_symbol y;
	memset(&y, 0, sizeof(y));
	strcpy(y.name, v->name);
	y.offset = offset;
	y.bytes = bytes;
	y.constant = v->constant;
	add_record(PLAN_SYMBOL, &y, sizeof(y), src, bytes);
}

static void
record_attribute(const void *func, cudaFuncAttribute attribute, int value)
{
	cudaKernel_t k = kernel_of(func);
	const char *name = k ? kernel_name(k) : NULL;
	if (!name || strlen(name) >= PLAN_NAME_MAX) {
		refuse("set an attribute of something that is not a kernel of its own file");
		return;
	}
	struct plan_attribute t;
	memset(&t, 0, sizeof(t));
	strcpy(t.name, name);
	t.attribute = (int32_t)attribute;
	t.value = value;
	add_record(PLAN_ATTRIBUTE, &t, sizeof(t));
}

/* ------------------------------------------------------------ the entry points the submission binds to */

extern "C" {

cudaError_t
__cudaLaunchKernel(cudaKernel_t k, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream)
{
	if (rec.on)
		record_launch(k, grid, block, args, shared, false);
	return real.launch_stub(k, grid, block, args, shared, stream);
}

cudaError_t
cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream)
{
	if (rec.on)
		record_launch(kernel_of(func), grid, block, args, shared, false);
	return real.launch(func, grid, block, args, shared, stream);
}

cudaError_t
cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream)
{
	if (rec.on)
		record_launch(kernel_of(func), grid, block, args, shared, true);
	return real.launch_cooperative(func, grid, block, args, shared, stream);
}

cudaError_t
cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
	if (rec.on && config) {
		bool cooperative = false;
		for (unsigned i = 0; i < config->numAttrs; i++) {
			if (config->attrs[i].id == cudaLaunchAttributeCooperative)
				cooperative = config->attrs[i].val.cooperative != 0;
			else if (config->attrs[i].id != cudaLaunchAttributePriority)
				refuse("launched with cudaLaunchKernelEx's attribute %d, which a plan does not carry "
				       "(cooperative launches are replayed)", (int)config->attrs[i].id);
		}
		record_launch(kernel_of(func), config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
			      cooperative);
	}
	return real.launch_ex(config, func, args);
}

/* A successful allocation becomes the plan's; a failed one is the replay's error there, as it was here. */
static cudaError_t
record_alloc_result(cudaError_t e, void *p, size_t bytes)
{
	if (!rec.on)
		return e;
	if (e == cudaSuccess) {
		record_alloc(p, bytes);
	} else {
		struct plan_failed f = { (int32_t)e, 0 };
		add_record(PLAN_FAILED, &f, sizeof(f));
	}
	return e;
}

cudaError_t
cudaMalloc(void **p, size_t bytes)
{
	cudaError_t e = real.malloc(p, bytes);
	return record_alloc_result(e, e == cudaSuccess ? *p : NULL, bytes);
}

cudaError_t
cudaMallocAsync(void **p, size_t bytes, cudaStream_t stream)
{
	cudaError_t e = real.malloc_async(p, bytes, stream);
	return record_alloc_result(e, e == cudaSuccess ? *p : NULL, bytes);
}

cudaError_t
cudaFree(void *p)
{
	if (rec.on && !record_free(p))
		return cudaErrorInvalidValue;
	return real.free(p);
}

cudaError_t
cudaFreeAsync(void *p, cudaStream_t stream)
{
	if (rec.on && !record_free(p))
		return cudaErrorInvalidValue;
	return real.free_async(p, stream);
}

cudaError_t
cudaMemset(void *p, int value, size_t bytes)
{
	if (rec.on)
		record_memset(p, value, bytes);
	return real.memset(p, value, bytes);
}

cudaError_t
cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t stream)
{
	if (rec.on)
		record_memset(p, value, bytes);
	return real.memset_async(p, value, bytes, stream);
}

cudaError_t
cudaMemcpyToSymbol(const void *symbol, const void *src, size_t bytes, size_t offset, cudaMemcpyKind kind)
{
	if (rec.on)
		record_symbol(symbol, src, bytes, offset, kind);
	return real.to_symbol(symbol, src, bytes, offset, kind);
}

cudaError_t
cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t bytes, size_t offset, cudaMemcpyKind kind,
			cudaStream_t stream)
{
	if (rec.on)
		record_symbol(symbol, src, bytes, offset, kind);
	return real.to_symbol_async(symbol, src, bytes, offset, kind, stream);
}

cudaError_t
cudaFuncSetAttribute(const void *func, cudaFuncAttribute attribute, int value)
{
	if (rec.on)
		record_attribute(func, attribute, value);
	return real.set_attribute(func, attribute, value);
}

cudaError_t
cudaDeviceSynchronize(void)
{
	if (rec.on)
		add_record(PLAN_SYNC, NULL, 0);
	return real.device_sync();
}

cudaError_t
cudaStreamSynchronize(cudaStream_t stream)
{
	if (rec.on)
		add_record(PLAN_SYNC, NULL, 0);
	return real.stream_sync(stream);
}

void
__cudaRegisterVar(void **module, char *host, char *device, const char *name, int ext, size_t bytes, int constant,
		  int global)
{
	variables.push_back({ host, name, bytes, constant != 0, false });
	real.register_var(module, host, device, name, ext, bytes, constant, global);
}

} /* extern "C" */

/* ------------------------------------------------------------ the cases */

/* The launcher's calls for case `index`, on stand-in buffers; sends the plan. 0, or -1 when the GPU is lost. */
static int
capture_case(const void *launcher, int index)
{
	struct check_case c;
	void *dev[PROTO_MAX_BUFFERS] = { 0 };
	cases_describe(&cfg, index, &c);
	rec.on = false;
	for (int k = 0; k < c.nbuffers; k++) {
		size_t bytes = check_bytes(&c.spec[k]);
		bool input = c.spec[k].role == BUFFER_IN;
		/* 512 bytes more, so that one array's end is never the next one's start */
		if (real.malloc(&dev[k], bytes + 512) != cudaSuccess ||
		    real.memset(dev[k], input ? 0 : dtype_poison_byte(c.spec[k].type), bytes) != cudaSuccess) {
			proto_sendf(channel, MSG_ERROR, (uint32_t)index, PROTO_STAGE_RUN,
				    "the capture of the launcher's calls could not allocate the case's %zu bytes", bytes);
			return -1;
		}
		rec.regions[k] = { (unsigned char *)dev[k], bytes, { PLAN_CASE_BUFFER, (uint32_t)k, 0 }, true };
	}
	rec.nbuffers = c.nbuffers;
	rec.refused = false;
	/* the grader's deadline for a case starts here */
	proto_send(channel, MSG_CASE_BEGIN, (uint32_t)index, 0, NULL, 0);
	rec.on = true;
	check_definition.launch(launcher, &c, dev);
	rec.on = false;
	cudaError_t e = real.device_sync();
	proto_send(channel, MSG_PLAN, (uint32_t)index, 0, rec.plan.data(), rec.plan.size());
	rec.plan.clear();
	for (int k = 0; k < c.nbuffers; k++) {
		rec.regions[k].live = false;
		real.free(dev[k]);
	}
	if (e != cudaSuccess) {
		/* the measuring process replays the plan and says what failed; a lost context ends the capture */
		cudaGetLastError();
		if (real.device_sync() != cudaSuccess)
			return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	if (cases_parse(argc, argv, &cfg))
		return 2;
	channel = cfg.channel_fd;
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	/* the case buffers' regions come first, by index */
	rec.regions.resize(PROTO_MAX_BUFFERS);
	if (!find_runtime()) {
		proto_sendf(channel, MSG_ERROR, 0, PROTO_STAGE_DEVICE,
			    "the CUDA runtime lacks an entry point the capture needs (CUDA 12.8 or later)");
		proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
		return 1;
	}
	gpu_open_before_filter();
	if (sandbox_enter(channel, false, false)) {
		proto_sendf(channel, MSG_ERROR, 0, PROTO_STAGE_DEVICE, "the system-call filter could not be installed");
		proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
		return 1;
	}
	char go;
	if (cfg.wait_go && read(0, &go, 1) != 1)
		return 0;
	char why[1024];
	/* from here on every call the submission makes is recorded, its constructors' too (into case 0's plan) */
	rec.on = true;
	const void *launcher = cfg.student && cfg.launcher ? sandbox_load(cfg.student, cfg.launcher, why, sizeof(why)) : NULL;
	rec.on = false;
	if (!launcher) {
		proto_sendf(channel, MSG_REFUSED, 0, SANDBOX_LOAD, "%s", cfg.student ? why : "no --student given");
		proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
		return 1;
	}
	for (int i = 0; i < cfg.ncases; i++)
		if ((cfg.timed < 0 || i != cfg.timed + 1) && capture_case(launcher, i))
			break;
	/* what the launcher and its kernels printed, before "done": the grader does not wait for the exit */
	fflush(stdout);
	fflush(stderr);
	proto_send(channel, MSG_DONE, 0, 0, NULL, 0);
	return 0;
}
