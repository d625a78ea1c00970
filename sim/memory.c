/*
 * memory.c — device memory, and the record of what a launch wrote.
 *
 * Every cudaMalloc is its own mapping with a guard page on each side; the
 * block is placed so that it ends (rounded up to 256 bytes, like CUDA's
 * alignment) right at the upper guard, so running off the end of an array
 * faults like an illegal address on a GPU. New memory is filled with 0xff
 * bytes (a float reads as NaN), never the friendly zeros of a fresh page.
 *
 * The order check (order.c) runs a launch twice; to undo the first run it
 * write-protects every allocation and keeps a copy of each page the moment
 * a kernel first writes to it (sim_track_fault, called from the SIGSEGV
 * handler). So the cost follows what the kernel writes, not the memory size.
 *
 * What kernel code reaches besides allocations (the __device__ variables, a
 * kernel's own malloc, the words its atomics wrote, its pointer arguments) is
 * kernel_memory.c's.
 *
 * Layer 3: calls current_launch.c, sched.c (which thread runs) and symbols.c.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sim.h"

#include <math.h>
#include <sys/mman.h>
#include <unistd.h>


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



/*
 * The __device__ variables' pages, when the submission was linked with
 * sim/student.ld, which gives them whole 64 KiB pages of their own (a
 * section that merely happens to start on a page may share its last page).
 */
static char *
devvar_pages(size_t *n)
{
	char *lo = sim_devvars(n);

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
	/* Sums reassociated by float atomics flow into plain words too (one that cancels to near zero:
	   against the size of the atomics' partial sums) */
	if (close_float(x, y, 1e-4) || close_to_scale(x, y, 1e-4, sim_atomic_float_scale()))
		return true;
	return close_double(mem - mis % 8, exp - mis % 8, 1e-9);
}

/* The first word of [mem, mem + len) that differs from exp and is not explained. */
bool
sim_first_difference(const char *mem, const char *exp, size_t len, void **where, uint32_t *va,
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
			    sim_first_difference(mem, (a->dirty[pg] & 1 ? a->result : a->orig) + pg * page,
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

