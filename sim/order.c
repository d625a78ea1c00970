/*
 * order.c — the order check: a launch runs twice, in forward order and then
 * reversed (launch.c's first comment says how), and a word that comes out
 * different is named, with who wrote it last, in the words of the mistake
 * that makes it: a missing barrier, two threads or two blocks writing one
 * word, blocks that read each other's writes.
 *
 * Layer 7, below launch.c: calls error.c, memory.c, kernel_memory.c,
 * sched.c, fault.c (the write watch) and grid.c.
 */
#include "sim.h"

#include <stdint.h>
#include <string.h>

static void
describe_word(char *buf, size_t n, const void *where, uint32_t va, uint32_t vb)
{
	struct sim_alloc *a = sim_alloc_find(where);
	char name[256];
	size_t off;
	float fa, fb;

	memcpy(&fa, &va, 4);
	memcpy(&fb, &vb, 4);
	if (a && a->integer && a->elem_size == 4)
		snprintf(buf, n, "the word at byte %zu of the %zu-byte allocation at %p "
			 "(%s element %zu) is %lld in one order and %lld in the other",
			 (size_t)((const char *)where - a->ptr), a->size, (void *)a->ptr, a->elem_name,
			 (size_t)((const char *)where - a->ptr) / 4,
			 strcmp(a->elem_name, "int32") ? (long long)va : (long long)(int32_t)va,
			 strcmp(a->elem_name, "int32") ? (long long)vb : (long long)(int32_t)vb);
	else if (a && a->elem_size != 4)
		snprintf(buf, n, "the word at byte %zu of the %zu-byte allocation at %p "
			 "(in %s element %zu) is 0x%08x in one order and 0x%08x in the other",
			 (size_t)((const char *)where - a->ptr), a->size, (void *)a->ptr, a->elem_name,
			 (size_t)((const char *)where - a->ptr) / a->elem_size, va, vb);
	else if (a)
		snprintf(buf, n, "the word at byte %zu of the %zu-byte allocation at %p "
			 "(float element %zu) is %g (0x%08x) in one order and %g (0x%08x) "
			 "in the other", (size_t)((const char *)where - a->ptr), a->size,
			 (void *)a->ptr, (size_t)((const char *)where - a->ptr) / 4,
			 fa, va, fb, vb);
	else if (sim_devvar_name(where, name, sizeof(name), &off))
		snprintf(buf, n, "byte %zu of the __device__ variable %s (float element %zu) is "
			 "%g (0x%08x) in one order and %g (0x%08x) in the other", off, name,
			 off / 4, fa, va, fb, vb);
	else
		snprintf(buf, n, "the __device__ variable word at %p is %g (0x%08x) in one "
			 "order and %g (0x%08x) in the other", where, fa, va, fb, vb);
}

/* The first word, in device memory or a __device__ variable, that order B changed. */
static bool
compare_runs(int devvar_slot, void **where, uint32_t *va, uint32_t *vb)
{
	bool atomic_word;

	return sim_track_compare(where, va, vb, &atomic_word) ||
	       sim_devvars_compare(devvar_slot, where, va, vb);
}

/* Who wrote a word last in each order: the same thread, two threads of a block, or two blocks. */
enum writers { SAME_WRITER, TWO_THREADS, TWO_BLOCKS };

/*
 * Run one block (or, with bid NULL, the whole grid) once more in each order
 * from the memory it started with, watching the word that came out
 * different, to name who wrote it last. Leaves the memory as the first order
 * makes it. Different last writers race to write the word, rather than one
 * reading what another wrote (a missing barrier leaves the same thread
 * writing last, with another value).
 */
static enum writers
find_writers(const uint3 *bid, void *where, int devvar_slot, char *out, size_t n)
{
	char desc[2][600];
	uint3 block[2], thread[2];
	bool have[2];

	out[0] = '\0';
	if (!sim_alloc_find(where))
		return SAME_WRITER;	/* a __device__ variable shares its page with other globals */
	for (int pass = 0; pass < 2; pass++) {
		bool forward = pass == 1;

		sim_track_restore_orig();
		sim_devvars_restore(devvar_slot);
		sim_watch_begin(where);
		if (bid)
			sim_block_run(*bid, forward);
		else
			sim_grid_run(forward);
		sim_watch_end();
		have[pass] = sim_watch_describe(desc[pass], sizeof(desc[pass]), &block[pass], &thread[pass]);
	}
	if (!have[0] || !have[1])
		return SAME_WRITER;
	snprintf(out, n, "; it was written last by %s in the first order and by %s "
		 "in the other", desc[1], desc[0]);
	if (block[0].x != block[1].x || block[0].y != block[1].y || block[0].z != block[1].z)
		return TWO_BLOCKS;
	if (thread[0].x != thread[1].x || thread[0].y != thread[1].y || thread[0].z != thread[1].z)
		return TWO_THREADS;
	return SAME_WRITER;
}

/*
 * The two orders of the whole launch disagree: find the first block that
 * disagrees with itself (threads in one order, then the other, from the same
 * memory); if none does, the blocks depend on each other's order.
 */
static void
diagnose(const char *whole, void *whole_where)
{
	dim3 g = sim_cur.grid;
	unsigned long long nblocks = (unsigned long long)g.x * g.y * g.z;
	char word[512], grid_writers[1400];
	bool two_blocks = find_writers(NULL, whole_where, 0, grid_writers, sizeof(grid_writers)) == TWO_BLOCKS;
	sim_track_restore_orig();
	sim_devvars_restore(0);
	for (unsigned long long l = 0; l < nblocks; l++) {
		uint3 bid = { (unsigned)(l % g.x), (unsigned)(l / g.x % g.y),
			      (unsigned)(l / ((unsigned long long)g.x * g.y)) };
		void *where;
		uint32_t va, vb;
		bool ok;

		sim_devvars_snapshot(2);
		sim_track_begin(0);
		ok = sim_block_run(bid, true);
		sim_track_end();
		if (!ok)
			return;
		sim_devvars_snapshot(3);
		sim_devvars_restore(2);
		sim_track_swap_to_orig();
		sim_track_begin(1);
		ok = sim_block_run(bid, false);
		sim_track_end();
		if (!ok)
			return;
		if (compare_runs(3, &where, &va, &vb)) {
			char writers[1400];

			describe_word(word, sizeof(word), where, va, vb);
			if (find_writers(&bid, where, 2, writers, sizeof(writers)) == TWO_THREADS) {
				sim_error(cudaErrorLaunchFailure,
					  "the result depends on the order in which threads run, because two "
					  "threads of block (%u,%u,%u) write the same word: when they run in one "
					  "order and then in the reverse order, %s%s. Whichever writes last wins, "
					  "and on a GPU that is either: does each element's index come out the "
					  "same for two threads (a bound or a stride that is wrong)?", bid.x, bid.y,
					  bid.z, word, writers);
				return;
			}
			sim_error(cudaErrorLaunchFailure,
				  "the result depends on the order in which threads run: when "
				  "the threads of block (%u,%u,%u) run in one order and then in "
				  "the reverse order, %s%s. A thread reads shared or global memory "
				  "that another thread of its block writes without a barrier "
				  "between the write and the read — is a __syncthreads() "
				  "missing?", bid.x, bid.y, bid.z, word, writers);
			return;
		}
		sim_track_restore_a();
		sim_devvars_restore(3);
	}
	if (two_blocks) {
		sim_error(cudaErrorLaunchFailure,
			  "the result depends on the order in which blocks run, because two blocks "
			  "write the same word: %s when the blocks run last-to-first "
			  "instead of first-to-last%s. Blocks run in any order on a GPU, so "
			  "whichever writes last wins: give each output element to one block, or "
			  "combine the blocks' parts with atomicAdd", whole, grid_writers);
		return;
	}
	sim_error(cudaErrorLaunchFailure,
		  "the result depends on the order in which blocks run: %s when the blocks run "
		  "last-to-first instead of first-to-last%s. Blocks run in any order on a GPU "
		  "and cannot wait for each other: does a block read what another block "
		  "writes in the same launch?", whole, grid_writers);
}

cudaError_t
sim_order_run(void)
{
	void *where;
	uint32_t va, vb;
	bool ok;
	char word[512];

	sim_atomic_reset();
	sim_devvars_snapshot(0);
	cudasim_tracking = 1;
	sim_cur.run = 0;
	sim_track_begin(0);
	ok = sim_grid_run(true);
	sim_track_end();
	if (!ok || sim_track_overflowed())
		return sim_sticky();
	sim_devvars_snapshot(1);
	sim_devvars_restore(0);
	sim_track_swap_to_orig();

	sim_cur.run = 1;
	sim_cur.quiet = true;
	sim_track_begin(1);
	ok = sim_grid_run(false);
	sim_track_end();
	if (!ok) {
		sim_detail_append(" (this happened only when the threads ran in the "
				  "reverse order)");
		return sim_sticky();
	}
	if (sim_track_overflowed())
		return sim_sticky();	/* untracked pages: the second run's result stands */
	if (compare_runs(1, &where, &va, &vb)) {
		describe_word(word, sizeof(word), where, va, vb);
		sim_cur.run = 2;
		diagnose(word, where);
		return sim_sticky();
	}
	sim_track_restore_a();
	sim_devvars_restore(1);
	return sim_sticky();
}
