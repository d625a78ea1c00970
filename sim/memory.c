/*
 * memory.c — device memory, and the record of what a launch wrote.
 *
 * Every cudaMalloc is its own mapping with a guard page on each side; the
 * block is placed so that it ends (rounded up to 256 bytes, like CUDA's
 * alignment) right at the upper guard, so running off the end of an array
 * faults like an illegal address on a GPU. New memory is filled with 0xff
 * bytes (a float reads as NaN), never the friendly zeros of a fresh page.
 *
 * The order check (launch.c) runs a launch twice; to undo the first run it
 * write-protects every allocation and keeps a copy of each page the moment
 * a kernel first writes to it (sim_track_fault, called from the SIGSEGV
 * handler). So the cost follows what the kernel writes, not the memory size.
 *
 * Layer 3: calls current_launch.c, sched.c (which thread runs) and symbols.c.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sim.h"

#include <link.h>
#include <math.h>
#include <sys/mman.h>
#include <unistd.h>

/* __device__ variables live in this section (the rewriter puts them there). */
extern char __start_cudasim_device[] __attribute__((weak));
extern char __stop_cudasim_device[] __attribute__((weak));

static struct sim_alloc **allocs;	/* sorted by ptr */
static int nallocs, cap;
static size_t page;
static int track_run = -1;
static volatile bool track_overflow;

bool sim_atomics_used;

static size_t
round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

/* sim_device_open/close below: whether device memory is guarded, and how many launches and calls opened it */
static bool guarding;
static int open_depth;

void *
sim_alloc(size_t size, enum sim_alloc_kind kind)
{
	struct sim_alloc *a;
	size_t body;
	int i;

	if (!page)
		page = (size_t)sysconf(_SC_PAGESIZE);
	if (nallocs == cap) {
		struct sim_alloc **n = realloc(allocs, (cap ? cap * 2 : 64) * sizeof(*n));

		if (!n)
			return NULL;
		allocs = n;
		cap = cap ? cap * 2 : 64;
	}
	a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	body = round_up(size, page);
	a->map_len = body + 2 * page;
	a->map = mmap(NULL, a->map_len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (a->map == MAP_FAILED) {
		free(a);
		return NULL;
	}
	mprotect(a->map, page, PROT_NONE);
	mprotect(a->map + page + body, page, PROT_NONE);
	a->page_lo = a->map + page;
	a->npages = body / page;
	a->ptr = a->page_lo + body - round_up(size, 256);
	a->size = size;
	a->kind = kind;
	a->elem_size = 4;
	snprintf(a->elem_name, sizeof(a->elem_name), "float");
	memset(a->ptr, 0xff, size);
	/* out of host code's reach from the start, when device memory is guarded */
	if (guarding && open_depth == 0)
		mprotect(a->page_lo, body, PROT_NONE);
	for (i = nallocs; i > 0 && allocs[i - 1]->ptr > a->ptr; i--)
		allocs[i] = allocs[i - 1];
	allocs[i] = a;
	nallocs++;
	return a->ptr;
}

static void
release(struct sim_alloc *a)
{
	munmap(a->map, a->map_len);
	if (a->orig) {
		munmap(a->orig, a->npages * page);
		munmap(a->result, a->npages * page);
		free(a->dirty);
	}
	if (a->blocks)
		munmap(a->blocks, SIM_WORD_BLOCKS_BYTES(a->size));
	free(a);
}

int
sim_free(void *ptr, enum sim_alloc_kind kind)
{
	for (int i = 0; i < nallocs; i++)
		if (allocs[i]->ptr == ptr && allocs[i]->kind == kind) {
			release(allocs[i]);
			memmove(&allocs[i], &allocs[i + 1], (nallocs - i - 1) * sizeof(*allocs));
			nallocs--;
			return 0;
		}
	return -1;
}

void
sim_free_all(void)
{
	for (int i = 0; i < nallocs; i++)
		release(allocs[i]);
	nallocs = 0;
}

/* Async-signal-safe: only reads the table. */
struct sim_alloc *
sim_alloc_find(const void *p)
{
	const char *c = p;
	int lo = 0, hi = nallocs - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		struct sim_alloc *a = allocs[mid];

		if (c < a->ptr)
			hi = mid - 1;
		else if (c >= a->ptr + (a->size ? a->size : 1))
			lo = mid + 1;
		else
			return a;
	}
	return NULL;
}

struct sim_alloc *
sim_alloc_below(const void *p)
{
	const char *c = p;
	struct sim_alloc *best = NULL;

	for (int i = 0; i < nallocs && allocs[i]->ptr <= c; i++)
		best = allocs[i];
	return best;
}

struct sim_alloc *
sim_alloc_near(const void *p)
{
	const char *c = p;

	for (int i = 0; i < nallocs; i++)
		if (c >= allocs[i]->map && c < allocs[i]->map + allocs[i]->map_len)
			return allocs[i];
	return NULL;
}


static char *devvars(size_t *n);

/*
 * The __device__ variables' pages, when the submission was linked with
 * sim/student.ld, which gives them whole 64 KiB pages of their own (a
 * section that merely happens to start on a page may share its last page).
 */
static char *
devvar_pages(size_t *n)
{
	char *lo = devvars(n);

	if (!*n || (uintptr_t)lo % 65536 || *n % 65536)
		*n = 0;
	return lo;
}

void
sim_allocs_protect(int prot)
{
	size_t n;
	char *lo = devvar_pages(&n);

	for (int i = 0; i < nallocs; i++)
		mprotect(allocs[i]->page_lo, allocs[i]->npages * page, prot);
	if (n)
		mprotect(lo, n, prot);
}

/*
 * Device memory is out of host code's reach, as on a GPU: once the runner
 * asks (after loading the submission), allocations and the __device__
 * variables are PROT_NONE except while a kernel runs or a runtime call
 * (cudaMemcpy, cudaMemset, cudaMemcpyToSymbol) touches them. A launcher that
 * loops over "device" pointers, or a __device__ array, on the host faults.
 */
void
cudasimGuardDeviceMemory(int on)
{
	guarding = on != 0;
	open_depth = 0;
	sim_allocs_protect(guarding ? PROT_NONE : PROT_READ | PROT_WRITE);
}

void
cudasimDescribeAllocation(const void *p, unsigned elem_size, const char *type)
{
	struct sim_alloc *a = sim_alloc_find(p);

	if (!a || a->ptr != p || !elem_size || !type)
		return;
	a->elem_size = elem_size;
	snprintf(a->elem_name, sizeof(a->elem_name), "%s", type);
	a->integer = strncmp(type, "float", 5) != 0;
}

void
sim_device_open(void)
{
	if (guarding && open_depth++ == 0)
		sim_allocs_protect(PROT_READ | PROT_WRITE);
}

void
sim_device_close(void)
{
	if (guarding && open_depth > 0 && --open_depth == 0)
		sim_allocs_protect(PROT_NONE);
}

int
cudasimGuardedDeviceAddress(const void *addr)
{
	return guarding && open_depth == 0 && sim_in_alloc_pages(addr);
}

/* Async-signal-safe: only reads the table. */
bool
sim_in_alloc_pages(const void *p)
{
	const char *c = p, *lo;
	size_t n;

	for (int i = 0; i < nallocs; i++)
		if (c >= allocs[i]->page_lo && c < allocs[i]->page_lo + allocs[i]->npages * page)
			return true;
	lo = devvar_pages(&n);
	return n && c >= lo && c < lo + n;
}

char *
sim_allocs_snapshot(void)
{
	size_t total = 0;
	char *copy, *at;

	for (int i = 0; i < nallocs; i++)
		total += allocs[i]->size;
	copy = malloc(total ? total : 1);
	if (!copy)
		return NULL;
	at = copy;
	for (int i = 0; i < nallocs; i++) {
		memcpy(at, allocs[i]->ptr, allocs[i]->size);
		at += allocs[i]->size;
	}
	return copy;
}

void
sim_allocs_restore(char *copy)
{
	char *at = copy;

	for (int i = 0; i < nallocs; i++) {
		memcpy(allocs[i]->ptr, at, allocs[i]->size);
		at += allocs[i]->size;
	}
}

/* ---------------------------------------------------------------- tracking */

static bool
shadows(struct sim_alloc *a)
{
	size_t len = a->npages * page;

	if (a->orig)
		return true;
	a->orig = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	a->result = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	a->dirty = calloc(a->npages, 1);
	if (a->orig != MAP_FAILED && a->result != MAP_FAILED && a->dirty)
		return true;
	if (a->orig != MAP_FAILED)
		munmap(a->orig, len);
	if (a->result != MAP_FAILED)
		munmap(a->result, len);
	free(a->dirty);
	a->orig = a->result = NULL;
	a->dirty = NULL;
	return false;
}

bool
sim_track_ready(void)
{
	for (int i = 0; i < nallocs; i++)
		if (!shadows(allocs[i]))
			return false;
	return true;
}

void
sim_track_begin(int run)
{
	track_run = run;
	if (run == 0)
		track_overflow = false;
	for (int i = 0; i < nallocs; i++) {
		struct sim_alloc *a = allocs[i];

		if (run == 0)
			memset(a->dirty, 0, a->npages);
		mprotect(a->page_lo, a->npages * page, PROT_READ);
	}
}

bool
sim_track_fault(void *addr)
{
	char *c = addr;

	if (track_run < 0)
		return false;
	for (int i = 0; i < nallocs; i++) {
		struct sim_alloc *a = allocs[i];
		size_t pg;

		if (c < a->page_lo || c >= a->page_lo + a->npages * page)
			continue;
		pg = (size_t)(c - a->page_lo) / page;
		if (a->dirty[pg] & (1 << track_run))
			return false;	/* writable already: a real fault */
		if (!a->dirty[pg])
			memcpy(a->orig + pg * page, a->page_lo + pg * page, page);
		a->dirty[pg] |= 1 << track_run;
		if (mprotect(a->page_lo + pg * page, page, PROT_READ | PROT_WRITE)) {
			/* Too many mappings (vm.max_map_count) from pages unprotected
			 * one by one: stop tracking, and the launch keeps this run. */
			for (int j = 0; j < nallocs; j++)
				mprotect(allocs[j]->page_lo, allocs[j]->npages * page,
					 PROT_READ | PROT_WRITE);
			track_overflow = true;
		}
		return true;
	}
	return false;
}

bool
sim_track_overflowed(void)
{
	return track_overflow;
}

void
sim_track_end(void)
{
	track_run = -1;
	for (int i = 0; i < nallocs; i++)
		mprotect(allocs[i]->page_lo, allocs[i]->npages * page, PROT_READ | PROT_WRITE);
}

void
sim_track_swap_to_orig(void)
{
	for (int i = 0; i < nallocs; i++) {
		struct sim_alloc *a = allocs[i];

		for (size_t pg = 0; pg < a->npages; pg++)
			if (a->dirty[pg] & 1) {
				memcpy(a->result + pg * page, a->page_lo + pg * page, page);
				memcpy(a->page_lo + pg * page, a->orig + pg * page, page);
			}
	}
}

static bool
close_float(uint32_t x, uint32_t y, double rel)
{
	float a, b;

	memcpy(&a, &x, 4);
	memcpy(&b, &y, 4);
	if (!isfinite(a) || !isfinite(b))
		return false;
	return fabs((double)a - b) <= rel * fmax(fabs(a), fabs(b)) + 1e-30;
}

/* A float atomic's sum may cancel to near zero: compare its rounding with the partial sums' size. */
static bool
close_to_scale(uint32_t xa, uint32_t xb, double rel, float scale)
{
	float a, b;

	memcpy(&a, &xa, 4);
	memcpy(&b, &xb, 4);
	return isfinite(a) && isfinite(b) && fabs((double)a - b) <= rel * scale;
}

static bool
close_double(const char *pa, const char *pb, double rel)
{
	double a, b;

	memcpy(&a, pa, 8);
	memcpy(&b, pb, 8);
	if (!isfinite(a) || !isfinite(b))
		return false;
	return fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + 1e-300;
}

/* Whether the word at mem (expected: exp) that differs between the two orders is explained by atomics. */
static bool
tolerated(const char *mem, const char *exp, bool *atomic_word)
{
	int kind;
	float scale;
	uint32_t x, y;
	size_t mis = (uintptr_t)mem % 8;

	memcpy(&x, mem, 4);
	memcpy(&y, exp, 4);
	*atomic_word = false;
	if (sim_atomic_was(mem, &kind, &scale)) {
		*atomic_word = true;
		if (kind == CUDASIM_ATOMIC_ORDER)
			return true;
		if (kind == CUDASIM_ATOMIC_FLOAT)
			return close_float(x, y, 1e-4) || close_to_scale(x, y, 1e-4, scale);
		if (kind == CUDASIM_ATOMIC_DOUBLE)
			return close_double(mem, exp, 1e-9);
		return false;
	}
	if (mis == 4 && sim_atomic_was(mem - 4, &kind, &scale) && kind == CUDASIM_ATOMIC_DOUBLE) {
		*atomic_word = true;
		return close_double(mem - 4, exp - 4, 1e-9);
	}
	if (!sim_atomics_used)
		return false;
	/* Integers are exact: whatever order the atomics took, every word comes out the same. */
	struct sim_alloc *al = sim_alloc_find(mem);
	if (al && al->integer)
		return false;
	/* Sums reassociated by float atomics flow into plain words too. */
	if (close_float(x, y, 1e-4))
		return true;
	return close_double(mem - mis % 8, exp - mis % 8, 1e-9);
}

/* The first word of [mem, mem + len) that differs from exp and is not explained. */
static bool
first_difference(const char *mem, const char *exp, size_t len, void **where, uint32_t *va,
		 uint32_t *vb, bool *atomic_word)
{
	if (!memcmp(mem, exp, len))
		return false;
	for (size_t off = 0; off + 4 <= len; off += 4) {
		if (!memcmp(mem + off, exp + off, 4) || tolerated(mem + off, exp + off, atomic_word))
			continue;
		*where = (void *)(mem + off);
		memcpy(va, exp + off, 4);
		memcpy(vb, mem + off, 4);
		return true;
	}
	return false;
}

bool
sim_track_compare(void **where, uint32_t *va, uint32_t *vb, bool *atomic_word)
{
	for (int i = 0; i < nallocs; i++) {
		struct sim_alloc *a = allocs[i];

		for (size_t pg = 0; pg < a->npages; pg++) {
			const char *mem = a->page_lo + pg * page;

			if (a->dirty[pg] &&
			    first_difference(mem, (a->dirty[pg] & 1 ? a->result : a->orig) + pg * page,
					     page, where, va, vb, atomic_word))
				return true;
		}
	}
	return false;
}

/* Put back every page a run wrote: order A's result, or what was there before. */
static void
restore(bool result_a)
{
	for (int i = 0; i < nallocs; i++) {
		struct sim_alloc *a = allocs[i];

		for (size_t pg = 0; pg < a->npages; pg++)
			if (a->dirty[pg])
				memcpy(a->page_lo + pg * page,
				       (result_a && (a->dirty[pg] & 1) ? a->result : a->orig) + pg * page,
				       page);
	}
}

void
sim_track_restore_a(void)
{
	restore(true);
}

void
sim_track_restore_orig(void)
{
	restore(false);
}

/* ---------------------------------------------------------------- atomics */

#define ATOMIC_SLOTS 4096
/* scale: the largest |value| a float atomic saw there, so a sum that cancels to
   near zero is still compared against the size of its partial sums */
static struct { const void *p; int kind; float scale; } atomic_set[ATOMIC_SLOTS];
static int atomic_count;
static bool atomic_overflow;

void
sim_atomic_reset(void)
{
	if (atomic_count)
		memset(atomic_set, 0, sizeof(atomic_set));
	atomic_count = 0;
	atomic_overflow = false;
	sim_atomics_used = false;
}

static size_t
slot_of(const void *p)
{
	return ((uintptr_t)p >> 2) * 0x9e3779b97f4a7c15ull >> 52;
}

void
cudasim_atomic_note(void *p, int kind)
{
	size_t h = slot_of(p);

	sim_atomics_used = true;
	if (!sim_alloc_find(p) && !sim_is_devvar(p))
		return;		/* shared memory: not compared */
	float magnitude = kind == CUDASIM_ATOMIC_FLOAT ? fabsf(*(const float *)p) : 0;
	for (int i = 0; i < ATOMIC_SLOTS; i++, h = (h + 1) % ATOMIC_SLOTS) {
		if (atomic_set[h].p == p) {
			if (magnitude > atomic_set[h].scale)
				atomic_set[h].scale = magnitude;
			return;
		}
		if (!atomic_set[h].p) {
			if (atomic_count >= ATOMIC_SLOTS / 2) {
				atomic_overflow = true;
				return;
			}
			atomic_set[h].p = p;
			atomic_set[h].kind = kind;
			atomic_set[h].scale = isfinite(magnitude) ? magnitude : 0;
			atomic_count++;
			return;
		}
	}
}

bool
sim_atomic_was(const void *p, int *kind, float *scale)
{
	size_t h = slot_of(p);

	*scale = 0;
	for (int i = 0; i < ATOMIC_SLOTS; i++, h = (h + 1) % ATOMIC_SLOTS) {
		if (atomic_set[h].p == p) {
			*kind = atomic_set[h].kind;
			*scale = atomic_set[h].scale;
			return true;
		}
		if (!atomic_set[h].p)
			break;
	}
	/* Too many targets to remember: treat every word as a float atomic's. */
	*kind = CUDASIM_ATOMIC_FLOAT;
	return atomic_overflow;
}

/* ---------------------------------------------------------------- __device__ variables */

static char *devvar_copy[SIM_DEVVAR_SLOTS];

/*
 * The __device__ variables of the student's code: the section of its shared
 * object once the runner has loaded one, else the program's own.
 */
static char *
devvars(size_t *n)
{
	static char *lo;
	static size_t size;
	static bool looked;

	if (!looked) {
		int found = sim_program_section("cudasim_device", &lo, &size);
		looked = found >= 0;
		if (found < 0) {
			lo = __start_cudasim_device;
			size = __start_cudasim_device ? (size_t)(__stop_cudasim_device - __start_cudasim_device) : 0;
		} else if (!found) {
			lo = NULL;
			size = 0;
		}
	}
	*n = size;
	return lo;
}

void
sim_devvars_snapshot(int slot)
{
	size_t n;
	char *lo = devvars(&n);

	if (!n)
		return;
	if (!devvar_copy[slot] && !(devvar_copy[slot] = malloc(n)))
		abort();
	memcpy(devvar_copy[slot], lo, n);
}

void
sim_devvars_restore(int slot)
{
	size_t n;
	char *lo = devvars(&n);

	if (n && devvar_copy[slot])
		memcpy(lo, devvar_copy[slot], n);
}

bool
sim_devvars_compare(int slot, void **where, uint32_t *va, uint32_t *vb)
{
	bool atomic_word;
	size_t n;
	char *lo = devvars(&n);

	return n && devvar_copy[slot] && first_difference(lo, devvar_copy[slot], n & ~(size_t)3, where, va, vb,
							  &atomic_word);
}

/* The __device__ variables as one allocation, for check.c's per-word records (its `blocks`). */
struct sim_alloc *
sim_devvars_alloc(void)
{
	static struct sim_alloc whole;
	size_t n;
	char *lo = devvars(&n);

	if (!n)
		return NULL;
	if (whole.ptr != lo || whole.size != n) {
		if (whole.blocks)
			munmap(whole.blocks, SIM_WORD_BLOCKS_BYTES(whole.size));
		memset(&whole, 0, sizeof(whole));
		whole.ptr = lo;
		whole.size = n;
		whole.elem_size = 4;
		snprintf(whole.elem_name, sizeof(whole.elem_name), "float");
	}
	return &whole;
}

bool
sim_is_devvar(const void *p)
{
	size_t n;
	const char *lo = devvars(&n);

	return n && (const char *)p >= lo && (const char *)p < lo + n;
}

bool
sim_devvar_name(const void *p, char *out, size_t n, size_t *offset)
{
	return sim_is_devvar(p) && sim_symbol_name(p, out, n, offset);
}

/* ---------------------------------------------------------------- device-side malloc */

/*
 * malloc and free called by kernel code (device code may: CUDA has a device
 * heap). The grader links the student's object with --wrap=malloc,free, so
 * its calls come here: in a kernel, the block is the host's but recorded, so
 * that check.c lets kernel code use it as device memory; from host code,
 * plain malloc.
 */
static struct { char *p; size_t n; } *kheap;
static size_t nkheap, kheap_cap;

void *__wrap_malloc(size_t n);
void __wrap_free(void *p);

void *
__wrap_malloc(size_t n)
{
	void *p = malloc(n);

	if (!p || !sim_cur.active || sim_blk.cur < 0)
		return p;
	if (nkheap == kheap_cap) {
		size_t cap = kheap_cap ? 2 * kheap_cap : 64;
		void *grown = realloc(kheap, cap * sizeof(*kheap));

		if (!grown) {
			free(p);
			return NULL;	/* a device heap that is full gives NULL too */
		}
		kheap = grown;
		kheap_cap = cap;
	}
	kheap[nkheap].p = p;
	kheap[nkheap++].n = n;
	return p;
}

void
__wrap_free(void *p)
{
	for (size_t i = nkheap; i-- > 0;)
		if (kheap[i].p == p) {
			kheap[i] = kheap[--nkheap];
			break;
		}
	free(p);
}

bool
sim_kernel_heap_holds(const void *p, size_t size)
{
	const char *c = p;

	for (size_t i = nkheap; i-- > 0;)
		if (c >= kheap[i].p && c + size <= kheap[i].p + kheap[i].n)
			return true;
	return false;
}

/* ---------------------------------------------------------------- kernel arguments */

static int bad_arg = -1;
static const void *bad_ptr;

struct in_data {
	const char *p;
	bool found;
};

static int
in_data_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct in_data *d = data;

	(void)size;
	if (!sim_is_program_object(info->dlpi_name))
		return 0;	/* only the program's own globals (__constant__ and the like) */
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *lo = (const char *)(info->dlpi_addr + ph->p_vaddr);

		if (ph->p_type == PT_LOAD && d->p >= lo && d->p < lo + ph->p_memsz)
			d->found = true;
	}
	return d->found;
}

/*
 * A pointer argument outside device memory: a host pointer given to a
 * kernel, which a GPU cannot follow. Globals of the program (__constant__
 * arrays, cudaGetSymbolAddress) pass.
 */
void
cudasim_pointer_arg(int index, const void *p)
{
	struct in_data d = { p, false };

	if (!p || bad_arg >= 0 || sim_alloc_near(p))
		return;
	dl_iterate_phdr(in_data_cb, &d);
	if (!d.found) {
		bad_arg = index;
		bad_ptr = p;
	}
}

int
sim_bad_pointer_arg(const void **p)
{
	int i = bad_arg;

	*p = bad_ptr;
	bad_arg = -1;
	return i;
}
