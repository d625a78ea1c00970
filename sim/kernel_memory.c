/*
 * kernel_memory.c — the memory kernel code reaches besides cudaMalloc's: the
 * __device__ variables (their section, snapshots for the order check, their
 * names), a kernel's own malloc, the words its atomics wrote (which two
 * orders may leave different within rounding), and the pointers a launch
 * passes (which must be device memory).
 *
 * Layer 3, one module with memory.c: calls current_launch.c, sched.c and symbols.c.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sim.h"

#include <link.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

/* __device__ variables live in this section (the rewriter puts them there). */
extern char __start_cudasim_device[] __attribute__((weak));
extern char __stop_cudasim_device[] __attribute__((weak));

/* ---------------------------------------------------------------- atomics */

#define ATOMIC_SLOTS 4096
/* scale: the largest |value| a float atomic saw there, so a sum that cancels to
   near zero is still compared against the size of its partial sums */
static struct { const void *p; int kind; float scale; } atomic_set[ATOMIC_SLOTS];
static int atomic_count;
static bool atomic_overflow;
/* the largest |value| any float atomic of the launch saw, shared memory's too: a block's threads that
   meet in a shared word through atomicAdd and store it plainly leave a word whose rounding follows the
   order of their adds, and it is measured against the size of those partial sums */
static float atomic_float_scale;

void
sim_atomic_reset(void)
{
	if (atomic_count)
		memset(atomic_set, 0, sizeof(atomic_set));
	atomic_count = 0;
	atomic_overflow = false;
	atomic_float_scale = 0;
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
	float magnitude = kind == CUDASIM_ATOMIC_FLOAT ? fabsf(*(const float *)p) : 0;
	if (isfinite(magnitude) && magnitude > atomic_float_scale)
		atomic_float_scale = magnitude;
	if (!sim_alloc_find(p) && !sim_is_devvar(p))
		return;		/* shared memory: not compared */
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

float
sim_atomic_float_scale(void)
{
	return atomic_float_scale;
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
char *
sim_devvars(size_t *n)
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
	char *lo = sim_devvars(&n);

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
	char *lo = sim_devvars(&n);

	if (n && devvar_copy[slot])
		memcpy(lo, devvar_copy[slot], n);
}

bool
sim_devvars_compare(int slot, void **where, uint32_t *va, uint32_t *vb)
{
	bool atomic_word;
	size_t n;
	char *lo = sim_devvars(&n);

	return n && devvar_copy[slot] && sim_first_difference(lo, devvar_copy[slot], n & ~(size_t)3, where, va, vb,
							  &atomic_word);
}

/* The __device__ variables as one allocation, for check.c's per-word records (its `blocks`). */
struct sim_alloc *
sim_devvars_alloc(void)
{
	static struct sim_alloc whole;
	size_t n;
	char *lo = sim_devvars(&n);

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
	const char *lo = sim_devvars(&n);

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
