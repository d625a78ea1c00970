/*
 * check.c — memcheck, racecheck and access counts for code compiled with the
 * instrumentation: g++ -fsanitize=thread turns every load and store of the
 * student's file into a call of one of the __tsan_* functions (tsan.c), with
 * the address, before the access. Only
 * the first run of a launch is looked at (not the order check's second run,
 * nor measure.c's), and only kernel code: the host code of the same file
 * calls the same functions and is let through at once.
 *
 * - An access to an allocation's mapping outside the bytes it asked for is
 *   out of bounds (one past the end of a 1023-float array lies in the
 *   allocation's rounding to 256 bytes and does not fault); so is one past
 *   the dynamic shared memory the launch asked for, and one past a
 *   __shared__ variable (smem.c leaves a gap after each).
 * - Shared memory has a shadow word per 4 bytes: the last writer and the
 *   last readers, with the block (cudasim_block_epoch) and the barrier
 *   interval (sim_blk.gen) they were in. Two threads in one interval, one
 *   writing, is a race; a read of a word no thread of the block wrote is
 *   uninitialized. Atomics are not instrumented (cudasim.h), so they are
 *   neither.
 * - A global word (of an allocation or a __device__ variable) keeps the
 *   blocks that last wrote and read it: a block that updates a word another
 *   block wrote in the same launch is diagnosed (check_global.c).
 * - Global loads and stores are counted per launch; the accesses of the
 *   first DETAIL_BLOCKS blocks of each launch go to measure.c's request
 *   count (sectors per request, wavefronts per request), a block at a time.
 * - Anything else is host memory, which a GPU's kernel cannot reach: a
 *   kernel may touch device memory (cudaMalloc, device-side malloc,
 *   __device__ and __constant__ variables), shared memory, its own stack,
 *   the launch's copy of its arguments, the built-in variables, and read
 *   the program's read-only data (literals, tables). Since simulated kernels
 *   run on the host, a malloc'd buffer or a host global reached through a
 *   pointer in a struct would work there: the launch fails as a GPU's does,
 *   with an illegal address. The order of the tests follows how often each
 *   kind of address comes: shared memory, the thread's stack, the last
 *   allocation, then the rest.
 *
 * This file keeps the counts and the findings, and sends each access where
 * it lies: shared memory to check_shared.c, the rest to check_global.c. The
 * instrumentation's entry points are tsan.c's.
 *
 * Layer 6: calls error.c, current_launch.c, symbols.c, sched.c, memory.c, measure.c (the
 * request count) and lines.c; sets sched.c's hooks sim_exited_past,
 * sim_barrier_diverged and sim_barrier_passing.
 */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

#define DETAIL_BLOCKS 32
#define DETAIL_CAP (1u << 21)	/* accesses kept of one block */


static bool any;			/* instrumented kernel code ran */
static struct cudasimChecks seen;
static struct cudasimFinding first[CUDASIM_FINDING_KINDS];
static struct sim_access *acc;
static size_t nacc;
static unsigned long long blocks_done;	/* of this launch's first run */
static struct sim_alloc *cached;	/* the allocation the last access was in */
/* each thread's last load or store (after it: a return address), in the block of cudasim_block_epoch */
static struct { uintptr_t pc; unsigned epoch; } last[SIM_MAX_THREADS];
/* each thread's barrier interval of its last global load, in the block of `epoch` */
static struct { unsigned gen, epoch; } loaded[SIM_MAX_THREADS];
/* the launch whose figures go to seen.launches[open_launch] (-1: none), and seen's totals when it began */
static int open_launch = -1;
static struct cudasimChecks launch_base;
static unsigned long long load_intervals, launch_base_intervals;
static bool launch_kept;	/* the open launch ran instrumented code, or was only recorded (dry) */
static const struct cudasim_site *launch_site;

static void drop_races(void);
static bool exited_past(int thread, const char *file, int line);
static void count_block_sectors(void);
static void request_cost(const struct sim_access *first, size_t lanes, unsigned units, unsigned ideal);

/* seen.launches' record of the launch that ran last: what it added to seen's totals. */
static void
launch_close(void)
{
	struct cudasimLaunchCounts *l;
	const struct cudasimStats *a = &seen.stats, *b = &launch_base.stats;

	if (open_launch < 0)
		return;
	l = &seen.launches[open_launch];
	open_launch = -1;
	if (!launch_kept) {
		/* the runtime's or the harness's own kernel: nothing of the student's to estimate */
		seen.nlaunches--;
		return;
	}
	l->smem += launch_site ? launch_site->static_smem : 0;
	l->global_loads = seen.global_loads - launch_base.global_loads;
	l->global_stores = seen.global_stores - launch_base.global_stores;
	l->global_load_bytes = seen.global_load_bytes - launch_base.global_load_bytes;
	l->global_store_bytes = seen.global_store_bytes - launch_base.global_store_bytes;
	l->load_intervals = load_intervals - launch_base_intervals;
	l->detail_blocks = blocks_done < DETAIL_BLOCKS ? blocks_done : DETAIL_BLOCKS;
	l->stats.measured = a->measured;
#define DIFF(f) l->stats.f = a->f - b->f
	DIFF(global_load_requests); DIFF(global_load_sectors); DIFF(global_store_requests);
	DIFF(global_store_sectors); DIFF(shared_requests); DIFF(shared_wavefronts);
	DIFF(global_load_ideal); DIFF(global_store_ideal); DIFF(shared_ideal);
#undef DIFF
}

/*
 * A block of a cooperative launch waits at a grid.sync() while the others
 * run: the requests it made so far are counted now, and its shared
 * memory's shadow words kept (check_shared.c), for the block that has the
 * arena next.
 */
static void *
block_parking(void)
{
	sim_check_grid_synced();
	if (nacc) {
		count_block_sectors();
		sim_requests_count(acc, nacc, &seen.stats, request_cost);
		nacc = 0;
	}
	return sim_check_shared_park();
}

static void
block_resuming(void *state)
{
	sim_check_shared_resume(state);
}

void
sim_check_launch_begin(bool dry)
{
	launch_close();
	launch_kept = dry;
	sim_block_parking = block_parking;
	sim_block_resuming = block_resuming;
	if (seen.nlaunches < CUDASIM_LAUNCHES) {
		struct cudasimLaunchCounts *l = &seen.launches[seen.nlaunches];

		memset(l, 0, sizeof(*l));
		l->grid[0] = sim_cur.grid.x, l->grid[1] = sim_cur.grid.y, l->grid[2] = sim_cur.grid.z;
		l->block[0] = sim_cur.block.x, l->block[1] = sim_cur.block.y, l->block[2] = sim_cur.block.z;
		l->smem = sim_cur.smem;
		l->threads = (unsigned long long)sim_cur.grid.x * sim_cur.grid.y * sim_cur.grid.z *
			     sim_cur.block.x * sim_cur.block.y * sim_cur.block.z;
		open_launch = seen.nlaunches;
		launch_base = seen;
		launch_base_intervals = load_intervals;
		launch_site = sim_cur.site;
	}
	seen.nlaunches++;
	sim_exited_past = exited_past;
	sim_barrier_diverged = drop_races;
	sim_barrier_passing = sim_check_shared_barrier;
	seen.threads += (unsigned long long)sim_cur.grid.x * sim_cur.grid.y * sim_cur.grid.z *
			sim_cur.block.x * sim_cur.block.y * sim_cur.block.z;
	blocks_done = 0;
	nacc = 0;
	cached = NULL;	/* allocations may have been freed since */
	sim_check_global_begin();
}

/* What each instruction cost beyond the ideal, to name the worst. */
#define COSTLY_MAX 64
static struct costly {
	uintptr_t pc;
	bool shared;
	unsigned long long excess;
} costly[COSTLY_MAX];
static int ncostly;

/* The 128-byte lines a global request touches (its lanes lie at first[0 .. lanes)): the L1 cache's work for it;
 * or, for a shared-memory load, whether every lane reads one word. */
static void
count_lines(const struct sim_access *first, size_t lanes)
{
	uintptr_t seen_lines[2 * SIM_WARP];
	unsigned n = 0;

	if (open_launch < 0)
		return;
	if (first->shared) {
		size_t i = 1;

		while (i < lanes && first[i].addr == first->addr)
			i++;
		seen.launches[open_launch].shared_broadcasts += lanes > 1 && i == lanes && !first->write;
		return;
	}
	for (size_t i = 0; i < lanes; i++)
		for (uintptr_t l = first[i].addr / 128; l <= (first[i].addr + first[i].size - 1) / 128; l++) {
			unsigned k = 0;

			while (k < n && seen_lines[k] != l)
				k++;
			if (k == n && n < 2 * SIM_WARP)
				seen_lines[n++] = l;
		}
	if (first->write)
		seen.launches[open_launch].store_lines += n;
	else
		seen.launches[open_launch].load_lines += n;
}

static int
cmp_sector(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

/* The sectors of global memory the block's loads touched, each counted once: what its SM's L1 cache fetches, if it
 * kept them all; and the bytes its loads and stores moved, which the launch's totals are so many times. */
static void
count_block_sectors(void)
{
	uintptr_t *sectors;
	size_t n = 0, distinct = 0;

	if (open_launch < 0 || !nacc || !(sectors = malloc(2 * nacc * sizeof(*sectors))))
		return;
	for (size_t i = 0; i < nacc; i++) {
		if (acc[i].shared)
			continue;
		if (acc[i].write) {
			seen.launches[open_launch].detail_store_bytes += acc[i].size;
			continue;
		}
		seen.launches[open_launch].detail_load_bytes += acc[i].size;
		for (uintptr_t s = acc[i].addr / 32; s <= (acc[i].addr + acc[i].size - 1) / 32 && n < 2 * nacc; s++)
			sectors[n++] = s;
	}
	qsort(sectors, n, sizeof(*sectors), cmp_sector);
	for (size_t i = 0; i < n; i++)
		distinct += !i || sectors[i] != sectors[i - 1];
	seen.launches[open_launch].load_block_sectors += distinct;
	free(sectors);
}

static void
request_cost(const struct sim_access *first, size_t lanes, unsigned units, unsigned ideal)
{
	int i;

	count_lines(first, lanes);
	sim_lines_request(first, units, ideal);
	if (units <= ideal)
		return;
	for (i = 0; i < ncostly && costly[i].pc != first->pc; i++)
		;
	if (i == COSTLY_MAX)
		return;
	if (i == ncostly)
		costly[ncostly++] = (struct costly){ first->pc, first->shared, 0 };
	costly[i].excess += units - ideal;
}

void
sim_check_block_done(void)
{
	count_block_sectors();
	if (nacc)
		sim_requests_count(acc, nacc, &seen.stats, request_cost);
	nacc = 0;
	blocks_done++;
}

/* A barrier divergence ends the launch: the races it made between the threads on either side are that divergence. */
static void
drop_races(void)
{
	memset(&first[CUDASIM_RACE], 0, sizeof(first[CUDASIM_RACE]));
}

/*
 * sched.c asks, of a thread that exited without waiting at the barrier of
 * file:line while the others wait there: did it use memory at a later line
 * of that file first? Then it went on past the barrier (one inside an if
 * that it skipped), where a thread that returned early did not. Lines are
 * looked up once per instruction and barrier.
 */
static bool
exited_past(int thread, const char *file, int line)
{
	static struct { uintptr_t pc; const char *file; int line; bool past; } memo[16];
	static unsigned next;
	char where[300], *colon;
	uintptr_t pc = last[thread].epoch == cudasim_block_epoch ? last[thread].pc : 0;
	bool past = false;

	if (!pc)
		return false;
	for (unsigned i = 0; i < sizeof(memo) / sizeof(*memo); i++)
		if (memo[i].pc == pc && memo[i].line == line && memo[i].file == file)
			return memo[i].past;
	sim_pc_line(pc, where, sizeof(where));
	if ((colon = strrchr(where, ':'))) {
		const char *a = strrchr(file, '/'), *b;

		*colon = '\0';
		b = strrchr(where, '/');
		past = atoi(colon + 1) > line && (!strcmp(where, file) || !strcmp(a ? a + 1 : file, b ? b + 1 : where));
	}
	memo[next % 16].pc = pc;
	memo[next % 16].file = file;
	memo[next % 16].line = line;
	memo[next++ % 16].past = past;
	return past;
}

int
cudasimTakeChecks(struct cudasimChecks *out)
{
	bool ran = any;

	if (!out)
		return -1;
	launch_close();
	*out = seen;
	out->nfindings = 0;
	for (int k = 1; k < CUDASIM_FINDING_KINDS; k++)
		if (first[k].count)
			out->findings[out->nfindings++] = first[k];
	for (int i = 0; i < ncostly; i++) {
		struct costly *c = &costly[i];
		unsigned long long *excess = c->shared ? &out->shared_excess : &out->global_excess;

		if (c->excess > *excess) {
			*excess = c->excess;
			sim_pc_line(c->pc, c->shared ? out->shared_where : out->global_where, sizeof(out->global_where));
		}
	}
	ncostly = 0;
	memset(&seen, 0, sizeof(seen));
	memset(first, 0, sizeof(first));
	any = false;
	return ran ? 0 : -1;
}

static bool enabled = true;

void
cudasimCheck(int on)
{
	enabled = on != 0;
}

bool
sim_checking(void)
{
	return enabled && sim_cur.active && sim_cur.run == 0 && !sim_measuring && sim_blk.cur >= 0;
}

/* Keep the first finding of each kind; count them all. */
struct cudasimFinding *
sim_check_finding(int kind, const void *addr, unsigned size, bool write, uintptr_t pc)
{
	struct cudasimFinding *f = &first[kind];

	if (f->count++)
		return NULL;
	f->kind = kind;
	f->addr = addr;
	f->size = size;
	f->write = write;
	f->thread = sim_blk.th[sim_blk.cur].idx;
	f->block = blockIdx;
	sim_pc_line(pc, f->where, sizeof(f->where));
	return f;
}

void
sim_check_other_access(struct cudasimFinding *f, int thread, bool write, uintptr_t pc)
{
	if (!f)
		return;
	f->other_write = write;
	f->other_thread = sim_blk.th[thread].idx;
	sim_pc_line(pc, f->other_where, sizeof(f->other_where));
}

void
sim_check_keep(const char *p, unsigned size, bool write, bool shared, uintptr_t pc)
{
	if (blocks_done >= DETAIL_BLOCKS || nacc == DETAIL_CAP)
		return;
	if (!acc && !(acc = malloc(DETAIL_CAP * sizeof(*acc))))
		return;
	/*
	 * g++ copies a float4 as two 8-byte moves (or four 4-byte ones), where
	 * the GPU makes one 16-byte load: the thread's access just before, at
	 * another instruction, that this one continues within the same aligned
	 * 16 bytes, is that same load. A loop's next element comes from the
	 * same instruction, and stays an access of its own.
	 */
	struct sim_access *last = nacc ? &acc[nacc - 1] : NULL;
	uintptr_t at = (uintptr_t)p;
	if (last && last->thread == sim_blk.cur && last->write == write && last->shared == shared && last->pc != pc &&
	    at == last->addr + last->size && last->addr / 16 == (at + size - 1) / 16) {
		last->size += size;
		return;
	}
	acc[nacc++] = (struct sim_access){ sim_blk.cur, 0, pc, at, write, shared, size };
}

void
sim_check_access(const void *addr, size_t size, bool write, uintptr_t pc)
{
	const char *p = addr;
	struct sim_alloc *a;

	/* in every run, so that the order check's two runs judge a barrier alike (exited_past); not the
	   copying of the arguments, which the launch's line does before the kernel's first */
	if (sim_cur.active && sim_blk.cur >= 0 && !(p >= sim_cur.params && p < sim_cur.params + sim_cur.params_size)) {
		last[sim_blk.cur].pc = pc;
		last[sim_blk.cur].epoch = cudasim_block_epoch;
	}
	if (!sim_checking())
		return;
	any = true;
	launch_kept = true;
	if (p >= cudasim_dyn_smem && p < cudasim_dyn_smem + SIM_DYN_ARENA) {
		if ((size_t)(p - cudasim_dyn_smem) + size > sim_cur.smem) {
			sim_check_shared_out_of_bounds(p, (unsigned)size, write, pc, 1, p - cudasim_dyn_smem, sim_cur.smem);
			return;
		}
		sim_check_shared_access(true, cudasim_dyn_smem, p, (unsigned)size, write, pc);
		return;
	}
	if (cudasim_static_smem && p >= cudasim_static_smem &&
	    p < cudasim_static_smem + sim_static_smem_used()) {
		size_t at = (size_t)(p - cudasim_static_smem), start, bytes;

		if (sim_static_slot(at, &start, &bytes) && at + size > start + bytes) {
			sim_check_shared_out_of_bounds(p, (unsigned)size, write, pc, 2, at - start, bytes);
			return;
		}
		sim_check_shared_access(false, cudasim_static_smem, p, (unsigned)size, write, pc);
		return;
	}
	if (sim_check_on_own_stack(p))
		return;
	a = cached && p >= cached->map && p < cached->map + cached->map_len ? cached : sim_alloc_near(p);
	if (!a && sim_is_devvar(p)) {
		struct sim_alloc *d = sim_devvars_alloc();

		if (d && p + size <= d->ptr + d->size)
			sim_check_cross_block(d, p, size, write, pc);
		return;
	}
	if (!a) {
		if (!sim_check_reachable_elsewhere(p, size, write)) {
			if (!sim_check_mapped(p))
				sim_check_far_out_of_bounds(p, size, write, pc);
			sim_check_host_memory(p, size, write, pc);
		}
		return;
	}
	cached = a;
	if (p < a->ptr || p + size > a->ptr + a->size)
		sim_check_finding(CUDASIM_OUT_OF_BOUNDS, p, (unsigned)size, write, pc);
	else
		sim_check_cross_block(a, p, size, write, pc);
	if (write) {
		seen.global_stores++;
		seen.global_store_bytes += size;
	} else {
		int t = sim_blk.cur;

		seen.global_loads++;
		seen.global_load_bytes += size;
		if (t >= 0 && (loaded[t].epoch != cudasim_block_epoch || loaded[t].gen != sim_blk.gen)) {
			loaded[t].epoch = cudasim_block_epoch;
			loaded[t].gen = sim_blk.gen;
			load_intervals++;
		}
	}
	sim_check_keep(p, (unsigned)size, write, false, pc);
}

/*
 * An atomic of kernel code (cudasim.h's, not instrumented: an atomic is no race, and blocks may update one
 * word through it): on a GPU it is a global request of its own, so its lanes' sectors count as a store's,
 * and a target in host memory is the illegal address a plain access there is. Shared memory's atomics
 * are not global requests.
 */
void
cudasim_atomic_access(const void *addr, unsigned size, const void *ret)
{
	const char *p = addr;
	uintptr_t pc = (uintptr_t)ret;

	if (!sim_checking())
		return;
	if ((p >= cudasim_dyn_smem && p < cudasim_dyn_smem + SIM_DYN_ARENA) ||
	    (cudasim_static_smem && p >= cudasim_static_smem && p < cudasim_static_smem + sim_static_smem_used()))
		return;
	if (sim_check_on_own_stack(p))
		return;
	struct sim_alloc *a = sim_alloc_near(p);
	if (!a && !sim_is_devvar(p) && !sim_check_reachable_elsewhere(p, size, true))
		sim_check_host_memory(p, size, true, pc);
	any = true;
	launch_kept = true;
	seen.global_stores++;
	seen.global_store_bytes += size;
	sim_check_keep(p, size, true, false, pc);
}
