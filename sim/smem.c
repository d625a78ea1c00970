/*
 * smem.c — a block's shared memory: the arena of static __shared__ variables
 * (a slot per declaration, at a fixed address), the dynamic arena (its pages
 * past what the launch asked for made to fault), and the poison a block
 * finds in both.
 *
 * Layer 2, beside sched.c: calls error.c and current_launch.c, and reads the block's
 * state (sim_blk).
 */
#include "lib/util.h"
#include "sim.h"
#include "fill.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

/* The dynamic shared memory of every block, at one address for the whole
 * program; its last page is a guard (fault.c protects it). */
char cudasim_dyn_smem[SIM_DYN_ARENA] __attribute__((aligned(4096)));

/*
 * The arena of static __shared__ variables: each declaration takes a slot
 * the first time it runs and keeps it, so its address is fixed; pages of
 * their own let measure.c watch them. Slots are never given back: their
 * number is that of the declarations in the program.
 */
#define STATIC_ARENA (64ul << 20)
#define SLOT_ALIGN 128

SIM_BUILTIN char *cudasim_static_smem;
static size_t arena_used;

/* Namespace-scope __shared__ variables, poisoned at every block. */
static struct { void *p; size_t n; } globals[256];
static int nglobals;

/* Where each slot lies, for check.c, in the order they were taken. */
struct slot {
	size_t at, size;
};
static struct slot *slots;
static size_t nslots, slots_cap;

static size_t
take_slot(size_t size)
{
	size_t at = arena_used;

	if (!cudasim_static_smem) {
		void *m = mmap(NULL, STATIC_ARENA, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

		if (m == MAP_FAILED) {
			fprintf(stderr, "cudasim: no memory for __shared__ variables\n");
			abort();
		}
		cudasim_static_smem = m;
	}
	if (size > STATIC_ARENA - at) {
		fprintf(stderr, "cudasim: more than %lu MiB of __shared__ declarations\n",
			STATIC_ARENA >> 20);
		abort();
	}
	/* a gap after each slot: an index just past an array's end lands in no array (check.c) */
	arena_used += (size + SLOT_ALIGN - 1) / SLOT_ALIGN * SLOT_ALIGN + SLOT_ALIGN;
	if (nslots == slots_cap) {
		size_t cap = slots_cap ? 2 * slots_cap : 64;
		struct slot *grown = realloc(slots, cap * sizeof(*slots));

		if (!grown) {
			fprintf(stderr, "cudasim: no memory for __shared__ variables\n");
			abort();
		}
		slots = grown;
		slots_cap = cap;
	}
	slots[nslots++] = (struct slot){ at, size };
	return at;
}

/* Shared memory as a block finds it: CUDASIM_SHARED_FILL_BITS in every word (fill.h says why). */
static void
fill_shared(void *p, size_t size)
{
	const uint32_t word = CUDASIM_SHARED_FILL_BITS;
	char *c = p;
	size_t i = 0;

	for (; i + 4 <= size; i += 4)
		memcpy(c + i, &word, 4);
	memcpy(c + i, &word, size - i);
}

bool
sim_static_slot(size_t at, size_t *start, size_t *size)
{
	size_t lo = 0, hi = nslots;

	/* the last slot that starts at or below `at` (slots only grow upwards) */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (slots[mid].at <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return false;
	*start = slots[lo - 1].at;
	*size = slots[lo - 1].size;
	return true;
}

size_t
sim_static_smem_used(void)
{
	return arena_used;
}

void *
cudasim_shared_global_at(size_t size)
{
	size_t at = take_slot(size);	/* first: it may make the arena */
	void *p = cudasim_static_smem + at;

	if (nglobals < (int)ARRAY_SIZE(globals)) {
		globals[nglobals].p = p;
		globals[nglobals++].n = size;
	}
	return p;
}

void *
cudasim_shared_slot(size_t size, unsigned *slot, unsigned *epoch, const char *file, int line)
{
	char *p;

	if (!*slot)
		*slot = (unsigned)take_slot(size) + 1;
	p = cudasim_static_smem + *slot - 1;
	if (!sim_cur.active || sim_blk.cur < 0)
		return p;	/* host code calling a device function */
	*epoch = cudasim_block_epoch;
	if (sim_shared_protected) {
		/* the poison is the runtime's write, not the kernel's access */
		char *lo = (char *)((uintptr_t)p & ~(uintptr_t)4095);
		size_t len = (size_t)(p + size - lo + 4095) / 4096 * 4096;

		mprotect(lo, len, PROT_READ | PROT_WRITE);
		fill_shared(p, size);
		mprotect(lo, len, PROT_NONE);
	} else {
		fill_shared(p, size);
	}
	sim_blk.static_smem += size;
	if (sim_blk.static_smem + sim_cur.smem > sim_cur.smem_limit) {
		sim_error(cudaErrorInvalidValue,
			  "too much shared memory: the __shared__ variable of %s:%d brings "
			  "the block to %zu bytes of static and %zu bytes of dynamic shared "
			  "memory, over the %zu bytes a block may have%s",
			  file, line, sim_blk.static_smem, sim_cur.smem, sim_cur.smem_limit,
			  sim_cur.smem_limit < CUDASIM_SMEM_OPTIN ?
			  " (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, "
			  "bytes) raises the limit to 232448)" : "");
		sim_abandon(cudaErrorInvalidValue);
	}
	return p;
}

/*
 * Only the dynamic shared memory a launch asked for is usable: the pages
 * past it fault, so a forgotten third <<<>>> argument is an illegal
 * address, as on a GPU, instead of memory that happens to be there.
 */
void
sim_dyn_smem_fence(size_t bytes)
{
	size_t page = 4096, usable = (bytes + page - 1) / page * page;

	if (usable < SIM_DYN_ARENA - page)
		mprotect(cudasim_dyn_smem + usable, SIM_DYN_ARENA - page - usable, PROT_NONE);
}

/* Shared memory as a new block finds it: every namespace-scope __shared__ variable and the dynamic arena poisoned. */
void
sim_smem_fill_block(void)
{
	for (int i = 0; i < nglobals; i++)
		fill_shared(globals[i].p, globals[i].n);
	fill_shared(cudasim_dyn_smem, sim_cur.smem);
}

void
sim_dyn_smem_unfence(void)
{
	mprotect(cudasim_dyn_smem, SIM_DYN_ARENA - 4096, PROT_READ | PROT_WRITE);
}
