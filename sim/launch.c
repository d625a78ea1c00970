/*
 * launch.c — a kernel launch: the limits a real sm_90 GPU enforces, the run
 * of every block, and the order check.
 *
 * The order check catches a missing __syncthreads(): the launch runs twice,
 * first with blocks and threads in forward order (thread 0 first at every
 * barrier interval), then with both reversed, from the same memory. The
 * pages the first run wrote are kept and the originals put back (memory.c);
 * a word that comes out different is an error of the launch. Words written
 * by atomics may differ within rounding (float sums in another order), and
 * atomicExch/CAS/Inc/Dec results may differ at all. The first run's result
 * is what the program sees, so every run is deterministic.
 *
 * Layer 7, the top: calls every module below it.
 */
#include "sim.h"

#include <stdint.h>

/* in the section of the variables kernel code may read (check.c) */
int cudasim_tracking __attribute__((section("cudasim_builtins")));

static int order_check = -1;

void
cudasimConfigure(int check_order, double launch_cpu_seconds)
{
	order_check = check_order != 0;
	sim_watchdog_limit(launch_cpu_seconds);
}

static bool
order_check_on(void)
{
	if (order_check < 0) {
		const char *e = getenv("CUDASIM_ORDER_CHECK");

		order_check = !(e && !strcmp(e, "0"));
	}
	return order_check;
}

/* A host function was entered (the rewriter's call): from kernel code, that is the GPU running host code. */
void
cudasim_host_function(const char *name)
{
	if (!sim_cur.active || sim_blk.cur < 0)
		return;
	sim_error(cudaErrorIllegalAddress,
		  "%s called the host function '%s' (through a pointer, which the compiler cannot check): a "
		  "kernel runs on the GPU, where the host's functions do not exist, so on a GPU this is an "
		  "illegal address; a kernel may call only __device__ functions", sim_where(), name);
	sim_abandon(cudaErrorIllegalAddress);
}

/* A kernel compiled for at most max_threads per block: a GPU refuses a launch of more. */
void
cudasim_launch_bounds(unsigned long long max_threads, const char *kernel)
{
	unsigned long long threads = (unsigned long long)blockDim.x * blockDim.y * blockDim.z;

	if (!sim_cur.active || sim_blk.cur < 0 || threads <= max_threads)
		return;
	sim_error(cudaErrorLaunchOutOfResources,
		  "%llu threads per block, but '%s' declares __launch_bounds__(%llu): it is compiled for at "
		  "most %llu threads per block, and a GPU refuses the launch (too many resources requested for "
		  "launch). Launch at most %llu threads per block, or raise the bound", threads, kernel,
		  max_threads, max_threads, max_threads);
	sim_abandon(cudaErrorLaunchOutOfResources);
}

static cudaError_t
config_error(cudaError_t err, const char *fmt, ...) __attribute__((format(__printf__, 2, 3)));

static cudaError_t
config_error(cudaError_t err, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sim_error(err, "kernel '%s' launched at %s:%d with grid (%u,%u,%u) and block "
			 "(%u,%u,%u): %s", sim_cur.site->kernel, sim_cur.site->file,
			 sim_cur.site->line, sim_cur.grid.x, sim_cur.grid.y, sim_cur.grid.z,
			 sim_cur.block.x, sim_cur.block.y, sim_cur.block.z, msg);
}

static cudaError_t
check_config(void)
{
	dim3 g = sim_cur.grid, b = sim_cur.block;
	unsigned long long threads = (unsigned long long)b.x * b.y * b.z;
	size_t dyn_limit = sim_dyn_smem_optin ? (size_t)sim_dyn_smem_optin : SIM_SMEM_DEFAULT;

	if (!threads)
		return config_error(cudaErrorInvalidConfiguration,
				    "a block needs at least one thread in each dimension");
	if (!g.x || !g.y || !g.z)
		return config_error(cudaErrorInvalidConfiguration,
				    "a grid needs at least one block in each dimension");
	if (b.x > 1024 || b.y > 1024 || b.z > 64)
		return config_error(cudaErrorInvalidConfiguration,
				    "a block may be at most 1024 x 1024 x 64 threads");
	if (threads > 1024)
		return config_error(cudaErrorInvalidConfiguration,
				    "%llu threads per block; a block may have at most 1024", threads);
	if (g.x > 2147483647u || g.y > 65535 || g.z > 65535)
		return config_error(cudaErrorInvalidConfiguration,
				    "a grid may be at most 2147483647 x 65535 x 65535 blocks");
	if (sim_cur.smem > dyn_limit)
		return config_error(cudaErrorInvalidValue,
				    "%zu bytes of dynamic shared memory, over the %zu bytes a block "
				    "may have%s", sim_cur.smem, dyn_limit,
				    sim_dyn_smem_optin ? " (the value given to cudaFuncSetAttribute)" :
				    " without opting in (cudaFuncSetAttribute(kernel, "
				    "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) allows up to 232448)");
	if (sim_cur.smem + sim_cur.site->static_smem > sim_cur.smem_limit)
		return config_error(cudaErrorInvalidValue,
				    "%zu bytes of static and %zu bytes of dynamic shared memory, over "
				    "the %zu bytes a block may have", sim_cur.site->static_smem,
				    sim_cur.smem, sim_cur.smem_limit);
	if (!sim_stream_valid(sim_cur.stream))
		return config_error(cudaErrorInvalidResourceHandle,
				    "the stream is not one that cudaStreamCreate made (destroyed already?)");
	if (sim_cur.cooperative) {
		/* every block must be on the GPU at once, or a grid.sync() waits for blocks that cannot start */
		int sms = 1, per_sm = 1;
		unsigned long long blocks = (unsigned long long)g.x * g.y * g.z;

		cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
		cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)check_config, (int)threads,
							      sim_cur.smem + sim_cur.site->static_smem);
		if (blocks > (unsigned long long)sms * (unsigned long long)per_sm)
			return config_error(cudaErrorCooperativeLaunchTooLarge,
					    "a cooperative launch of %llu blocks, more than this GPU holds at once "
					    "(%d SMs x %d blocks of %llu threads): grid.sync() would wait for blocks "
					    "that cannot start; size the grid with cudaOccupancyMaxActiveBlocksPerMultiprocessor "
					    "and cudaDevAttrMultiProcessorCount", blocks, sms, per_sm, threads);
	}
	return cudaSuccess;
}

static uint3
block_of(unsigned long long l)
{
	dim3 g = sim_cur.grid;

	return (uint3){ (unsigned)(l % g.x), (unsigned)(l / g.x % g.y), (unsigned)(l / ((unsigned long long)g.x * g.y)) };
}

/* A cooperative launch's blocks waiting at a grid.sync(), by linear index (NULL: finished); freed if abandoned. */
static struct sim_parked **parked;
static unsigned long long nparked;

static void
parked_release(void)
{
	for (unsigned long long i = 0; parked && i < nparked; i++)
		sim_parked_free(parked[i]);
	free(parked);
	parked = NULL;
	nparked = 0;
	sim_grid_parks = false;
}

/*
 * The blocks that reached a grid.sync() must all be at the same one, and
 * none may have finished without it: on a GPU those would wait forever.
 */
static bool
grid_sync_met(unsigned long long nblocks, unsigned long long finished, unsigned long long first_finished)
{
	unsigned long long first = nblocks;
	const char *file = NULL, *other_file;
	int line = 0, other_line;
	uint3 bid, other;

	for (unsigned long long l = 0; l < nblocks; l++) {
		if (!parked[l])
			continue;
		if (first == nblocks) {
			first = l;
			file = sim_parked_where(parked[l], &line, &bid);
			continue;
		}
		other_file = sim_parked_where(parked[l], &other_line, &other);
		if (other_line != line || strcmp(other_file, file)) {
			sim_error(cudaErrorLaunchFailure,
				  "grid barrier divergence: block (%u,%u,%u) waits at the grid.sync() of %s:%d while "
				  "block (%u,%u,%u) waits at the one of %s:%d; every block of the grid must reach the "
				  "same grid.sync()", bid.x, bid.y, bid.z, file, line, other.x, other.y, other.z,
				  other_file, other_line);
			return false;
		}
	}
	if (first < nblocks && finished) {
		other = block_of(first_finished);
		sim_error(cudaErrorLaunchFailure,
			  "grid barrier divergence: block (%u,%u,%u) waits at the grid.sync() of %s:%d, but block "
			  "(%u,%u,%u) finished the kernel without reaching it; every block of the grid must reach "
			  "every grid.sync() (is it inside an if, or after a return, that not every block takes?): "
			  "on a GPU the waiting blocks never go on", bid.x, bid.y, bid.z, file, line, other.x,
			  other.y, other.z);
		return false;
	}
	return true;
}

/*
 * A cooperative launch: every block runs to its next grid.sync() (or its
 * end) in the given order, then each one that waits there goes on to the
 * next, round after round, as a GPU that holds the whole grid at once would.
 */
static bool
run_cooperative(bool forward)
{
	dim3 g = sim_cur.grid;
	unsigned long long nblocks = (unsigned long long)g.x * g.y * g.z, waiting = nblocks;
	bool ok = true, first_round = true;

	parked_release();
	parked = calloc(nblocks, sizeof(*parked));
	if (!parked) {
		sim_error(cudaErrorMemoryAllocation, "no memory for the blocks of a cooperative launch");
		return false;
	}
	nparked = nblocks;
	sim_grid_parks = true;
	while (ok && waiting) {
		unsigned long long finished = 0, first_finished = 0, now = 0;

		for (unsigned long long i = 0; ok && i < nblocks; i++) {
			unsigned long long l = forward ? i : nblocks - 1 - i;
			struct sim_parked *p = parked[l];

			if (!first_round && !p)
				continue;
			parked[l] = NULL;
			ok = first_round ? sim_block_run(block_of(l), forward) : sim_block_resume(p);
			if (ok && sim_blk.parked) {
				if (!(parked[l] = sim_block_park())) {
					sim_error(cudaErrorMemoryAllocation, "no memory to keep a block of a cooperative launch");
					ok = false;
				}
				now++;
			} else if (ok) {
				if (!finished++)
					first_finished = l;
				if (sim_cur.run == 0)
					sim_check_block_done();
			}
		}
		first_round = false;
		waiting = now;
		if (ok && waiting && !grid_sync_met(nblocks, finished, first_finished))
			ok = false;
	}
	/* a failed block's threads may hold stacks; the parked ones' go back with the launch's */
	if (!ok)
		sim_stack_put_all();
	parked_release();
	return ok;
}

/* Every block once, in the given order; false once an error ended it. */
static bool
run_grid(bool forward)
{
	dim3 g = sim_cur.grid;
	unsigned long long nblocks = (unsigned long long)g.x * g.y * g.z;

	if (sim_cur.cooperative)
		return run_cooperative(forward);
	for (unsigned long long i = 0; i < nblocks; i++) {
		unsigned long long l = forward ? i : nblocks - 1 - i;

		if (!sim_block_run(block_of(l), forward))
			return false;
		if (sim_cur.run == 0)
			sim_check_block_done();
	}
	return true;
}

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
			run_grid(forward);
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

static cudaError_t
run_checked(void)
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
	ok = run_grid(true);
	sim_track_end();
	if (!ok || sim_track_overflowed())
		return sim_sticky();
	sim_devvars_snapshot(1);
	sim_devvars_restore(0);
	sim_track_swap_to_orig();

	sim_cur.run = 1;
	sim_cur.quiet = true;
	sim_track_begin(1);
	ok = run_grid(false);
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

static bool dry_launches, cooperative_next;

void
cudasim_cooperative_next(void)
{
	cooperative_next = true;
}

void
cudasimDryLaunches(int sms)
{
	dry_launches = sms > 0;
	sim_reported_sms = sms > 0 ? sms : 0;
}

void
cudasim_launch(struct cudasim_site *site, dim3 grid, dim3 block, size_t smem,
	       cudaStream_t stream, void (*thunk)(void *), void *closure, size_t closure_size)
{
	unsigned threads;
	cudaError_t err;
	bool check;
	const void *host_ptr;
	int bad;

	if (sim_sticky()) {
		sim_bad_pointer_arg(&host_ptr);
		return;
	}
	if (sim_cur.active) {
		sim_error(cudaErrorNotSupported, "kernel '%s' launched at %s:%d from inside a "
			  "kernel: the simulator does not run dynamic parallelism",
			  site->kernel, site->file, site->line);
		sim_abandon(cudaErrorNotSupported);
	}
	sim_cur.site = site;
	sim_cur.grid = grid;
	sim_cur.block = block;
	sim_cur.smem = smem;
	sim_cur.stream = stream;
	sim_cur.smem_limit = sim_dyn_smem_optin ? CUDASIM_SMEM_OPTIN : SIM_SMEM_DEFAULT;
	sim_cur.quiet = false;
	sim_cur.run = 0;
	sim_cur.cooperative = cooperative_next;
	cooperative_next = false;
	if (check_config()) {
		sim_bad_pointer_arg(&host_ptr);
		return;
	}
	bad = sim_bad_pointer_arg(&host_ptr);
	if (bad >= 0) {
		config_error(cudaErrorIllegalAddress,
			     "argument %d is %p, a host pointer, not device memory from cudaMalloc; "
			     "a kernel cannot read or write host memory (was the host array passed "
			     "instead of its device copy?)", bad + 1, host_ptr);
		return;
	}
	site->launches++;
	if (dry_launches) {
		sim_check_launch_begin(true);
		return;
	}
	threads = block.x * block.y * block.z;
	/* Without room for the shadow copies, the launch runs once, unchecked. */
	check = order_check_on() &&
		(threads > 1 || (unsigned long long)grid.x * grid.y * grid.z > 1) &&
		sim_track_ready();

	gridDim = grid;
	blockDim = block;
	sim_blk.n = (int)threads;
	sim_blk.thunk = thunk;
	sim_blk.closure = closure;
	sim_cur.params = closure;
	sim_cur.params_size = closure_size;
	sim_fault_init();
	sim_device_open();

	if (sigsetjmp(sim_abandon_jmp, 1)) {
		/* A fault, a timeout or a limit ended the launch. */
		bool tracked = cudasim_tracking;

		sim_device_close();
		sim_cur.active = false;
		cudasim_tracking = 0;
		sim_watchdog_disarm();
		sim_watch_end();
		sim_measure_abandon();
		sim_dyn_smem_unfence();
		if (tracked) {
			sim_track_end();
			if (sim_cur.run == 1) {
				sim_track_restore_a();
				sim_devvars_restore(1);
			}
		}
		sim_stack_put_all();
		parked_release();
		sim_blk.cur = -1;
		err = sim_abandon_err ? sim_abandon_err : sim_fault_report();
		sim_abandon_err = cudaSuccess;
		sim_detail_prefix("kernel '%s' (launched at %s:%d): ", site->kernel,
				  site->file, site->line);
		if (sim_cur.run == 1)
			sim_detail_append(" (this happened only when the threads ran in "
					  "the reverse order)");
		sim_printf_flush();
		(void)err;
		return;
	}
	sim_check_launch_begin(false);
	sim_cur.active = true;
	sim_dyn_smem_fence(smem);
	sim_watchdog_arm();
	if (check) {
		err = run_checked();
	} else {
		run_grid(true);
		err = sim_sticky();
	}
	if (!err) {
		sim_cur.quiet = true;
		sim_measure_launch();
	}
	sim_watchdog_disarm();
	sim_dyn_smem_unfence();
	cudasim_tracking = 0;
	sim_cur.active = false;
	if (sim_blk.static_smem > site->static_smem)
		site->static_smem = sim_blk.static_smem;
	if (err)
		sim_detail_prefix("kernel '%s' (launched at %s:%d): ", site->kernel,
				  site->file, site->line);
	sim_printf_flush();
	sim_device_close();
}
