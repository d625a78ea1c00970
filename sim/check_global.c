/*
 * check_global.c — the checks of every address outside shared memory
 * (check.c's first comment says what they find): a block's plain
 * read-modify-write of a word another block wrote (cross-block updates,
 * with the fences and grid syncs that order blocks), the memory kernel code
 * may reach besides allocations, host memory, and an address mapped nowhere.
 *
 * Layer 6, one module with check.c: calls error.c, current_launch.c, symbols.c,
 * sched.c and memory.c.
 */
#include "sim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static unsigned launch_epoch;		/* the block epoch of this launch's first block */
static unsigned fences;			/* __threadfence() calls, ever */
static unsigned *fenced;		/* per linear block of this launch: `fences` at its last */
static size_t nfenced;
static bool grid_synced;	/* the launch passed a grid.sync(): blocks have seen each other's stores */

void
sim_check_global_begin(void)
{
	grid_synced = false;
	launch_epoch = cudasim_block_epoch + 1;	/* sim_block_run counts before the block runs */
	free(fenced);
	fenced = NULL;
	nfenced = 0;
}

void
sim_check_grid_synced(void)
{
	grid_synced = true;
}

/* The simulator's variables that kernel code reads: threadIdx and co. (sched.c, launch.c). */
extern char __start_cudasim_builtins[], __stop_cudasim_builtins[];
extern char __start_cudasim_device[] __attribute__((weak));
extern char __stop_cudasim_device[] __attribute__((weak));

bool
sim_check_on_own_stack(const char *p)
{
	const struct sim_stack *s = sim_blk.th[sim_blk.cur].stack;

	if (!s)
		s = sim_blk.sched_stack;	/* a thread that never blocked runs on the scheduler's */
	return s && p >= s->lo && p < s->hi;
}

/* Memory outside the allocations that kernel code may still touch (see the top of check.c). */
bool
sim_check_reachable_elsewhere(const char *p, size_t size, bool write)
{
	const char *params = sim_cur.params;

	if (sim_is_devvar(p) || sim_kernel_heap_holds(p, size))
		return true;
	/* the runner's own __device__ variables: the reference solution's, run instrumented for the estimate */
	if (__start_cudasim_device && p >= __start_cudasim_device && p + size <= __stop_cudasim_device)
		return true;
	if (write)
		return false;
	return (p >= params && p + size <= params + sim_cur.params_size) ||
	       (p >= __start_cudasim_builtins && p + size <= __stop_cudasim_builtins) ||
	       sim_program_read_only(p, size);
}

void
sim_check_host_memory(const char *p, size_t size, bool write, uintptr_t pc)
{
	char where[300], name[200], var[256] = "";
	size_t offset;

	sim_pc_line(pc, where, sizeof(where));
	if (sim_symbol_name(p, name, sizeof(name), &offset))
		snprintf(var, sizeof(var), ", in the host variable '%s' (byte %zu)", name, offset);
	sim_error(cudaErrorIllegalAddress,
		  "%s %s host memory at %s: %zu bytes at %p%s, which no cudaMalloc made. A kernel runs on "
		  "the GPU, which cannot reach the host's memory (a malloc'd or new'd block, a host variable, "
		  "the launcher's local variables): on a GPU this is an illegal address. A kernel may use "
		  "memory from cudaMalloc, __device__ and __constant__ variables, shared memory and its own "
		  "local variables", sim_where(), write ? "wrote" : "read", where, size, (const void *)p, var);
	sim_abandon(cudaErrorIllegalAddress);
}

/*
 * Cross-block updates. A block that reads a global word another block of the
 * launch wrote with a plain store, and then writes it, makes a
 * read-modify-write (out[k] += v) that on a GPU runs at the same time as the
 * other block's: both read the same old value and one update is lost. Blocks
 * run one after another here, so the order check's two orders add up alike
 * and cannot see it: each word keeps the block that last wrote it and the
 * block that read it since (sim_alloc.blocks, made at the allocation's first
 * store; the __device__ variables are one allocation, sim_devvars_alloc).
 * The handshake that does order blocks on a GPU is not this: a writer that
 * ran __threadfence() after its store, read by a block that made an atomic
 * first (a lock taken with atomicCAS, the last block to count itself in
 * finishing the others' sums). Atomics are not instrumented, so they
 * neither read nor write here.
 */

static unsigned long long
linear_block(void)
{
	return blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
}

static uint3
block_at(unsigned long long l)
{
	return (uint3){ (unsigned)(l % gridDim.x), (unsigned)(l / gridDim.x % gridDim.y),
			(unsigned)(l / ((unsigned long long)gridDim.x * gridDim.y)) };
}

void
cudasim_threadfence(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!sim_checking())
		return;
	unsigned long long l = linear_block(), n = (unsigned long long)gridDim.x * gridDim.y * gridDim.z;

	if (!fenced) {
		fenced = calloc(n, sizeof(*fenced));
		nfenced = fenced ? n : 0;
	}
	if (l < nfenced)
		fenced[l] = ++fences;
}

static void __attribute__((noreturn))
cross_block_update(const struct sim_alloc *a, size_t word, const struct sim_word_blocks *w, uintptr_t pc)
{
	char where[300], name[256], what[400];
	uint3 writer = block_at(w->wblock);
	size_t byte = word * 4, offset;

	sim_pc_line(pc, where, sizeof(where));
	if (a == sim_devvars_alloc() && sim_devvar_name(a->ptr + byte, name, sizeof(name), &offset))
		snprintf(what, sizeof(what), "byte %zu of the __device__ variable %s", offset, name);
	else
		snprintf(what, sizeof(what), "the word at byte %zu of the %zu-byte allocation at %p (%s element %zu)",
			 byte, a->size, (void *)a->ptr, a->elem_name, byte / (a->elem_size ? a->elem_size : 4));
	sim_error(cudaErrorLaunchFailure,
		  "the result depends on the order in which blocks run, because two blocks update the same "
		  "word with a plain read-modify-write: %s read %s, which block (%u,%u,%u) wrote earlier in the "
		  "same launch, and wrote it back at %s. Blocks run at the same time on a GPU: both read the same "
		  "old value and one update is lost. A word that several blocks update needs atomicAdd (or each "
		  "block its own output element, combined afterwards)", sim_where(), what, writer.x, writer.y,
		  writer.z, where);
	sim_abandon(cudaErrorLaunchFailure);
}

void
sim_check_cross_block(struct sim_alloc *a, const char *p, size_t size, bool write, uintptr_t pc)
{
	unsigned epoch = cudasim_block_epoch;
	size_t lo = (size_t)(p - a->ptr) / 4, hi = (size_t)(p - a->ptr + size - 1) / 4;

	if (!a->blocks) {
		if (!write)
			return;		/* nothing in it was written by a kernel yet */
		void *m = mmap(NULL, SIM_WORD_BLOCKS_BYTES(a->size), PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (m == MAP_FAILED)
			return;
		a->blocks = m;
	}
	for (size_t i = lo; i <= hi; i++) {
		struct sim_word_blocks *w = &a->blocks[i];
		/* a store before a grid.sync() is every block's after it (one slip: a store after the last one) */
		bool published = grid_synced ||
				 (w->wblock < nfenced && fenced[w->wblock] > w->wfence && cudasim_atomic_epoch == epoch);
		bool foreign = w->wepoch >= launch_epoch && w->wepoch != epoch && !published;

		if (!write) {
			if (foreign)
				w->repoch = epoch;
			continue;
		}
		if (foreign && w->repoch == epoch)
			cross_block_update(a, i, w, pc);
		w->wepoch = epoch;
		w->wblock = (unsigned)linear_block();
		w->wfence = fences;
	}
}

/*
 * An address mapped nowhere is no host memory either: an index far out of
 * bounds. Named after the allocation below it; an index near 2^32 elements
 * is a negative int index that met an unsigned one (`i - 3 + threadIdx.x`).
 */
bool
sim_check_mapped(const char *p)
{
	unsigned char vec;
	uintptr_t page = (uintptr_t)p & ~(uintptr_t)4095;

	return mincore((void *)page, 1, &vec) == 0 || errno != ENOMEM;
}

void
sim_check_far_out_of_bounds(const char *p, size_t size, bool write, uintptr_t pc)
{
	char where[300], what[400] = "";
	struct sim_alloc *a = sim_alloc_below(p);

	sim_pc_line(pc, where, sizeof(where));
	if (a) {
		unsigned long long index = (unsigned long long)(p - a->ptr) / (a->elem_size ? a->elem_size : 4);

		snprintf(what, sizeof(what), ", %zu bytes past the end of the %zu-byte allocation at %p (its %s "
			 "element %llu)%s", (size_t)(p - (a->ptr + a->size)), a->size, (void *)a->ptr, a->elem_name,
			 index, index >= (1ull << 31) && index < (1ull << 32)
			 ? ": element 4294967296 less " : "");
		if (index >= (1ull << 31) && index < (1ull << 32))
			snprintf(what + strlen(what), sizeof(what) - strlen(what), "%llu, that is element -%llu "
				 "taken as unsigned: an int index that went below zero, added to an unsigned one "
				 "(threadIdx.x, blockDim.x) or a size_t, wraps to about 4 billion",
				 (1ull << 32) - index, (1ull << 32) - index);
	}
	sim_error(cudaErrorIllegalAddress,
		  "%s %s %zu bytes at %p at %s, far out of bounds%s: on a GPU this is an illegal address. Is an "
		  "index below zero or past the end, or a bounds check missing?", sim_where(),
		  write ? "wrote" : "read", size, (const void *)p, where, what);
	sim_abandon(cudaErrorIllegalAddress);
}
