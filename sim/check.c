/*
 * check.c — memcheck, racecheck and access counts for code compiled with the
 * instrumentation: g++ -fsanitize=thread turns every load and store of the
 * student's file into a call of one of the __tsan_* functions below, with
 * the address, before the access. Only
 * the first run of a launch is looked at (not the order check's second run,
 * nor measure.c's), and only kernel code: the host code of the same file
 * calls the same functions and is let through at once.
 *
 * - An access to an allocation's mapping outside the bytes it asked for is
 *   out of bounds (one past the end of a 1023-float array lies in the
 *   allocation's rounding to 256 bytes and does not fault); so is one past
 *   the dynamic shared memory the launch asked for, and one past a
 *   __shared__ variable (sched.c leaves a gap after each).
 * - Shared memory has a shadow word per 4 bytes: the last writer and the
 *   last readers, with the block (cudasim_block_epoch) and the barrier
 *   interval (sim_blk.gen) they were in. Two threads in one interval, one
 *   writing, is a race; a read of a word no thread of the block wrote is
 *   uninitialized. Atomics are not instrumented (cudasim.h), so they are
 *   neither.
 * - A global word (of an allocation or a __device__ variable) keeps the
 *   blocks that last wrote and read it: a block that updates a word another
 *   block wrote in the same launch is diagnosed (cross_block below).
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
 * Layer 6: calls error.c, current_launch.c, symbols.c, sched.c, memory.c, measure.c (the
 * request count) and lines.c; sets sched.c's hooks sim_exited_past and
 * sim_barrier_diverged.
 */
#include "sim.h"

#include <errno.h>
#include <sys/mman.h>

#define DETAIL_BLOCKS 32
#define DETAIL_CAP (1u << 21)	/* accesses kept of one block */
#define NOBODY (-1)

struct word {
	unsigned wepoch, repoch;	/* the block of the last write, of the last reads */
	unsigned wgen, rgen;		/* and their barrier intervals */
	unsigned wwarp, rwarp;		/* and how many warp syncs their warps had passed */
	int writer, reader, reader2;	/* reader2: another reader in the same interval */
	uintptr_t wpc, rpc;
};

static struct word dyn_words[SIM_DYN_ARENA / 4];
static struct word *static_words;
static size_t nstatic_words;

static bool any;			/* instrumented kernel code ran */
static struct cudasimChecks seen;
static struct cudasimFinding first[CUDASIM_FINDING_KINDS];
/* cross-block updates (cross_block below) */
static unsigned launch_epoch;		/* the block epoch of this launch's first block */
static unsigned fences;			/* __threadfence() calls, ever */
static unsigned *fenced;		/* per linear block of this launch: `fences` at its last */
static size_t nfenced;
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
static bool grid_synced;	/* the launch passed a grid.sync(): blocks have seen each other's stores */
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
 * memory's shadow words kept, for the block that has the arena next.
 */
struct parked_words {
	size_t ndyn, nstatic;
	struct word w[];
};

static void *
block_parking(void)
{
	size_t ndyn = sim_cur.smem / 4 + 1, nstatic = nstatic_words;
	struct parked_words *p = malloc(sizeof(*p) + (ndyn + nstatic) * sizeof(struct word));

	grid_synced = true;
	if (nacc) {
		count_block_sectors();
		sim_requests_count(acc, nacc, &seen.stats, request_cost);
		nacc = 0;
	}
	if (!p)
		return NULL;
	p->ndyn = ndyn;
	p->nstatic = nstatic;
	memcpy(p->w, dyn_words, ndyn * sizeof(struct word));
	if (nstatic)
		memcpy(p->w + ndyn, static_words, nstatic * sizeof(struct word));
	return p;
}

static void
block_resuming(void *state)
{
	struct parked_words *p = state;

	if (!p)
		return;
	memcpy(dyn_words, p->w, p->ndyn * sizeof(struct word));
	if (p->nstatic && p->nstatic <= nstatic_words)
		memcpy(static_words, p->w + p->ndyn, p->nstatic * sizeof(struct word));
}

void
sim_check_launch_begin(bool dry)
{
	launch_close();
	launch_kept = dry;
	grid_synced = false;
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
	seen.threads += (unsigned long long)sim_cur.grid.x * sim_cur.grid.y * sim_cur.grid.z *
			sim_cur.block.x * sim_cur.block.y * sim_cur.block.z;
	blocks_done = 0;
	nacc = 0;
	cached = NULL;	/* allocations may have been freed since */
	launch_epoch = cudasim_block_epoch + 1;	/* sim_block_run counts before the block runs */
	free(fenced);
	fenced = NULL;
	nfenced = 0;
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

static bool
checking(void)
{
	return enabled && sim_cur.active && sim_cur.run == 0 && !sim_measuring && sim_blk.cur >= 0;
}

/* Keep the first finding of each kind; count them all. */
static struct cudasimFinding *
finding(int kind, const void *addr, unsigned size, bool write, uintptr_t pc)
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

static void
other_access(struct cudasimFinding *f, int thread, bool write, uintptr_t pc)
{
	if (!f)
		return;
	f->other_write = write;
	f->other_thread = sim_blk.th[thread].idx;
	sim_pc_line(pc, f->other_where, sizeof(f->other_where));
}

/*
 * Whether thread t's access is ordered after `other`'s, made when other's
 * warp had passed `warp_syncs` warp syncs: in one warp, a __syncwarp() (or
 * another warp function) that both lanes met since then orders them.
 */
static bool
warp_ordered(int t, int other, unsigned warp_syncs)
{
	int warp = t / SIM_WARP;

	return other >= 0 && other / SIM_WARP == warp && sim_blk.warp_gen[warp] != warp_syncs;
}

static void
shared_word(struct word *w, const char *addr, long long offset, bool write, uintptr_t pc)
{
	unsigned epoch = cudasim_block_epoch, gen = sim_blk.gen;
	int t = sim_blk.cur;
	unsigned warp_syncs = sim_blk.warp_gen[t / SIM_WARP];
	struct cudasimFinding *f = NULL;

	if (write) {
		bool read_now = w->repoch == epoch && w->rgen == gen;
		int reader = !read_now ? NOBODY : w->reader != t ? w->reader : w->reader2;

		if (reader != NOBODY && warp_ordered(t, reader, w->rwarp))
			reader = NOBODY;
		if (w->wepoch == epoch && w->wgen == gen && w->writer != t && !warp_ordered(t, w->writer, w->wwarp)) {
			f = finding(CUDASIM_RACE, addr, 4, true, pc);
			other_access(f, w->writer, true, w->wpc);
		} else if (reader != NOBODY) {
			f = finding(CUDASIM_RACE, addr, 4, true, pc);
			other_access(f, reader, false, w->rpc);
		}
		w->wepoch = epoch;
		w->wgen = gen;
		w->wwarp = warp_syncs;
		w->writer = t;
		w->wpc = pc;
	} else {
		if (w->wepoch != epoch) {
			f = finding(CUDASIM_UNINITIALIZED, addr, 4, false, pc);
		} else if (w->wgen == gen && w->writer != t && !warp_ordered(t, w->writer, w->wwarp)) {
			f = finding(CUDASIM_RACE, addr, 4, false, pc);
			other_access(f, w->writer, true, w->wpc);
		}
		bool same_interval = w->repoch == epoch && w->rgen == gen;

		if (!same_interval || (w->reader >= 0 && warp_ordered(t, w->reader, w->rwarp))) {
			w->repoch = epoch;
			w->rgen = gen;
			w->rwarp = warp_syncs;
			w->reader = t;
			w->reader2 = NOBODY;
			w->rpc = pc;
		} else if (w->reader != t && w->reader2 == NOBODY) {
			w->reader2 = t;
		}
	}
	if (f) {
		f->shared = 1;
		f->offset = offset;
	}
}

static struct word *
static_word(size_t index)
{
	if (index >= nstatic_words) {
		size_t n = sim_static_smem_used() / 4 + 1;
		struct word *w = realloc(static_words, n * sizeof(*w));

		if (!w)
			return NULL;
		memset(w + nstatic_words, 0, (n - nstatic_words) * sizeof(*w));
		static_words = w;
		nstatic_words = n;
	}
	return index < nstatic_words ? &static_words[index] : NULL;
}

static void
keep(const char *p, unsigned size, bool write, bool shared, uintptr_t pc)
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

static void
shared_access(struct word *words, const char *base, const char *p, unsigned size, bool write, uintptr_t pc)
{
	size_t lo = (size_t)(p - base) / 4, hi = (size_t)(p - base + size - 1) / 4;

	for (size_t i = lo; i <= hi; i++) {
		struct word *w = words ? &words[i] : static_word(i);

		if (w)
			shared_word(w, p, (long long)(p - base), write, pc);
	}
	keep(p, size, write, true, pc);
}

/* Past the dynamic shared memory asked for (kind 1), or past a __shared__ variable (2), into the gap after it. */
static void
shared_out_of_bounds(const char *p, unsigned size, bool write, uintptr_t pc, int kind, size_t offset, size_t extent)
{
	struct cudasimFinding *f = finding(CUDASIM_OUT_OF_BOUNDS, p, size, write, pc);

	if (f) {
		f->shared = kind;
		f->offset = (long long)offset;
		f->extent = (long long)extent;
	}
}

/* The simulator's variables that kernel code reads: threadIdx and co. (sched.c, launch.c). */
extern char __start_cudasim_builtins[], __stop_cudasim_builtins[];
extern char __start_cudasim_device[] __attribute__((weak));
extern char __stop_cudasim_device[] __attribute__((weak));

static bool
on_own_stack(const char *p)
{
	const struct sim_stack *s = sim_blk.th[sim_blk.cur].stack;

	if (!s)
		s = sim_blk.sched_stack;	/* a thread that never blocked runs on the scheduler's */
	return s && p >= s->lo && p < s->hi;
}

/* Memory outside the allocations that kernel code may still touch (see the top of the file). */
static bool
reachable_elsewhere(const char *p, size_t size, bool write)
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

static void __attribute__((noreturn))
host_memory(const char *p, size_t size, bool write, uintptr_t pc)
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

static bool checking(void);

void
cudasim_threadfence(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!checking())
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

static void
cross_block(struct sim_alloc *a, const char *p, size_t size, bool write, uintptr_t pc)
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
static bool
mapped(const char *p)
{
	unsigned char vec;
	uintptr_t page = (uintptr_t)p & ~(uintptr_t)4095;

	return mincore((void *)page, 1, &vec) == 0 || errno != ENOMEM;
}

static void __attribute__((noreturn))
far_out_of_bounds(const char *p, size_t size, bool write, uintptr_t pc)
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

static void
access(const void *addr, size_t size, bool write, uintptr_t pc)
{
	const char *p = addr;
	struct sim_alloc *a;

	/* in every run, so that the order check's two runs judge a barrier alike (exited_past); not the
	   copying of the arguments, which the launch's line does before the kernel's first */
	if (sim_cur.active && sim_blk.cur >= 0 && !(p >= sim_cur.params && p < sim_cur.params + sim_cur.params_size)) {
		last[sim_blk.cur].pc = pc;
		last[sim_blk.cur].epoch = cudasim_block_epoch;
	}
	if (!checking())
		return;
	any = true;
	launch_kept = true;
	if (p >= cudasim_dyn_smem && p < cudasim_dyn_smem + SIM_DYN_ARENA) {
		if ((size_t)(p - cudasim_dyn_smem) + size > sim_cur.smem) {
			shared_out_of_bounds(p, (unsigned)size, write, pc, 1, p - cudasim_dyn_smem, sim_cur.smem);
			return;
		}
		shared_access(dyn_words, cudasim_dyn_smem, p, (unsigned)size, write, pc);
		return;
	}
	if (cudasim_static_smem && p >= cudasim_static_smem &&
	    p < cudasim_static_smem + sim_static_smem_used()) {
		size_t at = (size_t)(p - cudasim_static_smem), start, bytes;

		if (sim_static_slot(at, &start, &bytes) && at + size > start + bytes) {
			shared_out_of_bounds(p, (unsigned)size, write, pc, 2, at - start, bytes);
			return;
		}
		shared_access(NULL, cudasim_static_smem, p, (unsigned)size, write, pc);
		return;
	}
	if (on_own_stack(p))
		return;
	a = cached && p >= cached->map && p < cached->map + cached->map_len ? cached : sim_alloc_near(p);
	if (!a && sim_is_devvar(p)) {
		struct sim_alloc *d = sim_devvars_alloc();

		if (d && p + size <= d->ptr + d->size)
			cross_block(d, p, size, write, pc);
		return;
	}
	if (!a) {
		if (!reachable_elsewhere(p, size, write)) {
			if (!mapped(p))
				far_out_of_bounds(p, size, write, pc);
			host_memory(p, size, write, pc);
		}
		return;
	}
	cached = a;
	if (p < a->ptr || p + size > a->ptr + a->size)
		finding(CUDASIM_OUT_OF_BOUNDS, p, (unsigned)size, write, pc);
	else
		cross_block(a, p, size, write, pc);
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
	keep(p, (unsigned)size, write, false, pc);
}

/*
 * The instrumentation's entry points. ThreadSanitizer's, not
 * AddressSanitizer's: ASan checks an address once per basic block, so the
 * store of x[i] += y, after the load of x[i], would go unseen; TSan
 * reports both, as a read and a write.
 */
#define HOOKS(n) \
	void __tsan_read##n(void *p); \
	void __tsan_write##n(void *p); \
	void __tsan_unaligned_read##n(void *p); \
	void __tsan_unaligned_write##n(void *p); \
	void __tsan_volatile_read##n(void *p); \
	void __tsan_volatile_write##n(void *p); \
	void __tsan_read##n(void *p) \
	{ access(p, n, false, (uintptr_t)__builtin_return_address(0)); } \
	void __tsan_write##n(void *p) \
	{ access(p, n, true, (uintptr_t)__builtin_return_address(0)); } \
	void __tsan_unaligned_read##n(void *p) \
	{ access(p, n, false, (uintptr_t)__builtin_return_address(0)); } \
	void __tsan_unaligned_write##n(void *p) \
	{ access(p, n, true, (uintptr_t)__builtin_return_address(0)); } \
	void __tsan_volatile_read##n(void *p) \
	{ access(p, n, false, (uintptr_t)__builtin_return_address(0)); } \
	void __tsan_volatile_write##n(void *p) \
	{ access(p, n, true, (uintptr_t)__builtin_return_address(0)); }

HOOKS(1)
HOOKS(2)
HOOKS(4)
HOOKS(8)
HOOKS(16)

void __tsan_read_range(void *p, size_t n);
void __tsan_write_range(void *p, size_t n);
void __tsan_init(void);
void __tsan_func_entry(void *pc);
void __tsan_func_exit(void);
void __tsan_vptr_update(void **p, void *value);
void __tsan_vptr_read(void **p);
void __tsan_atomic_thread_fence(int order);
void __tsan_atomic_signal_fence(int order);

void
__tsan_read_range(void *p, size_t n)
{
	access(p, n, false, (uintptr_t)__builtin_return_address(0));
}

void
__tsan_write_range(void *p, size_t n)
{
	access(p, n, true, (uintptr_t)__builtin_return_address(0));
}

/*
 * The C library's memory functions, which kernel code may call as device
 * code may: the grader links the student's object with --wrap for each, so
 * its calls come here and are checked as the accesses they make (the C
 * library itself is not instrumented).
 */
void *__wrap_memcpy(void *dst, const void *src, size_t n);
void *__wrap_memmove(void *dst, const void *src, size_t n);
void *__wrap_memset(void *dst, int c, size_t n);
void *__wrap___memcpy_chk(void *dst, const void *src, size_t n, size_t room);
void *__wrap___memmove_chk(void *dst, const void *src, size_t n, size_t room);
void *__wrap___memset_chk(void *dst, int c, size_t n, size_t room);

static void
range(const void *dst, const void *src, size_t n, uintptr_t pc)
{
	if (!n)
		return;
	if (src)
		access(src, n, false, pc);
	access(dst, n, true, pc);
}

void *
__wrap_memcpy(void *dst, const void *src, size_t n)
{
	range(dst, src, n, (uintptr_t)__builtin_return_address(0));
	return memcpy(dst, src, n);
}

void *
__wrap_memmove(void *dst, const void *src, size_t n)
{
	range(dst, src, n, (uintptr_t)__builtin_return_address(0));
	return memmove(dst, src, n);
}

void *
__wrap_memset(void *dst, int c, size_t n)
{
	range(dst, NULL, n, (uintptr_t)__builtin_return_address(0));
	return memset(dst, c, n);
}

void *
__wrap___memcpy_chk(void *dst, const void *src, size_t n, size_t room)
{
	if (n > room)
		abort();
	range(dst, src, n, (uintptr_t)__builtin_return_address(0));
	return memcpy(dst, src, n);
}

void *
__wrap___memmove_chk(void *dst, const void *src, size_t n, size_t room)
{
	if (n > room)
		abort();
	range(dst, src, n, (uintptr_t)__builtin_return_address(0));
	return memmove(dst, src, n);
}

void *
__wrap___memset_chk(void *dst, int c, size_t n, size_t room)
{
	if (n > room)
		abort();
	range(dst, NULL, n, (uintptr_t)__builtin_return_address(0));
	return memset(dst, c, n);
}

/*
 * Atomics in the instrumented file (a function-local static's guard, a
 * std::atomic in host code) come as __tsan_atomic* calls: they are atomics,
 * no plain access to check, so they do what they say, sequentially
 * consistent whatever order was asked for.
 */
#define TSAN_ATOMIC(bits, T) \
	T __tsan_atomic##bits##_load(const volatile T *a, int mo); \
	void __tsan_atomic##bits##_store(volatile T *a, T v, int mo); \
	T __tsan_atomic##bits##_exchange(volatile T *a, T v, int mo); \
	T __tsan_atomic##bits##_fetch_add(volatile T *a, T v, int mo); \
	T __tsan_atomic##bits##_fetch_sub(volatile T *a, T v, int mo); \
	T __tsan_atomic##bits##_fetch_and(volatile T *a, T v, int mo); \
	T __tsan_atomic##bits##_fetch_or(volatile T *a, T v, int mo); \
	T __tsan_atomic##bits##_fetch_xor(volatile T *a, T v, int mo); \
	T __tsan_atomic##bits##_fetch_nand(volatile T *a, T v, int mo); \
	int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fail_mo); \
	int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fail_mo); \
	T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fail_mo); \
	T __tsan_atomic##bits##_load(const volatile T *a, int mo) \
	{ (void)mo; return __atomic_load_n(a, __ATOMIC_SEQ_CST); } \
	void __tsan_atomic##bits##_store(volatile T *a, T v, int mo) \
	{ (void)mo; __atomic_store_n(a, v, __ATOMIC_SEQ_CST); } \
	T __tsan_atomic##bits##_exchange(volatile T *a, T v, int mo) \
	{ (void)mo; return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST); } \
	T __tsan_atomic##bits##_fetch_add(volatile T *a, T v, int mo) \
	{ (void)mo; return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST); } \
	T __tsan_atomic##bits##_fetch_sub(volatile T *a, T v, int mo) \
	{ (void)mo; return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST); } \
	T __tsan_atomic##bits##_fetch_and(volatile T *a, T v, int mo) \
	{ (void)mo; return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST); } \
	T __tsan_atomic##bits##_fetch_or(volatile T *a, T v, int mo) \
	{ (void)mo; return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST); } \
	T __tsan_atomic##bits##_fetch_xor(volatile T *a, T v, int mo) \
	{ (void)mo; return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST); } \
	T __tsan_atomic##bits##_fetch_nand(volatile T *a, T v, int mo) \
	{ (void)mo; return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST); } \
	int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fail_mo) \
	{ (void)mo, (void)fail_mo; return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, \
								       __ATOMIC_SEQ_CST); } \
	int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fail_mo) \
	{ return __tsan_atomic##bits##_compare_exchange_strong(a, c, v, mo, fail_mo); } \
	T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fail_mo) \
	{ (void)mo, (void)fail_mo; __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, \
							       __ATOMIC_SEQ_CST); return c; }

TSAN_ATOMIC(8, char)
TSAN_ATOMIC(16, short)
TSAN_ATOMIC(32, int)
TSAN_ATOMIC(64, long)

/* What else an instrumented file may call: nothing to check there. */
void __tsan_init(void) {}
void __tsan_func_entry(void *pc) { (void)pc; }
void __tsan_func_exit(void) {}
void __tsan_vptr_update(void **p, void *value) { (void)p, (void)value; }
void __tsan_vptr_read(void **p) { (void)p; }
void __tsan_atomic_thread_fence(int order) { __atomic_thread_fence(__ATOMIC_SEQ_CST); (void)order; }
void __tsan_atomic_signal_fence(int order) { __atomic_signal_fence(__ATOMIC_SEQ_CST); (void)order; }
