/*
 * measure.c — how a kernel's warps touch memory, without a GPU: sectors per
 * request for global loads and stores (coalescing) and wavefronts per
 * request for dynamic shared memory (bank conflicts), the figures Nsight
 * Compute gives (l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum over
 * requests, and so on).
 *
 * When asked (cudasimMeasure(1) or CUDASIM_MEASURE=1), block (0,0,0) of each
 * launch runs once more after the launch, forward, with device memory and
 * shared memory (both arenas) protected: every access traps and is stepped
 * over (fault.c), and its thread, instruction and address are kept. The
 * accesses of one warp at one instruction, the k-th time each lane got
 * there, make one request. Memory is put back afterwards, so the extra run
 * changes nothing the program sees. x86-64 only (single-stepping).
 *
 * Layer 5: calls current_launch.c, sched.c, memory.c and fault.c (the single-step trace).
 */
#include "sim.h"

#include <sys/mman.h>

static struct sim_access *acc;
static size_t nacc, cap = 1 << 18;
static bool dropped;
static int measure = -1;	/* -1: not decided yet */
static struct cudasimStats last;
bool sim_measuring;

void
cudasimMeasure(int on)
{
	measure = on != 0;
}

int
cudasimLastLaunchStats(struct cudasimStats *stats)
{
	if (!stats)
		return -1;
	*stats = last;
	return last.measured ? 0 : -1;
}

static bool
measuring(void)
{
	if (measure < 0) {
		const char *e = getenv("CUDASIM_MEASURE");

		measure = e && *e && strcmp(e, "0");
	}
	return measure;
}

static size_t
pages_of(size_t bytes)
{
	return (bytes + 4095) / 4096 * 4096;
}

/* Dynamic shared memory, or the slots of static __shared__ variables. */
static bool
in_shared(const void *p)
{
	const char *c = p;

	return (c >= cudasim_dyn_smem && c < cudasim_dyn_smem + pages_of(sim_cur.smem)) ||
	       (cudasim_static_smem && c >= cudasim_static_smem &&
		c < cudasim_static_smem + pages_of(sim_static_smem_used()));
}

static bool
traced(const void *p)
{
	return in_shared(p) || sim_in_alloc_pages(p);
}

static void
protect_shared(int prot)
{
	if (sim_cur.smem)
		mprotect(cudasim_dyn_smem, pages_of(sim_cur.smem), prot);
	if (cudasim_static_smem && sim_static_smem_used())
		mprotect(cudasim_static_smem, pages_of(sim_static_smem_used()), prot);
}

static void
unprotect_all(void)
{
	sim_allocs_protect(PROT_READ | PROT_WRITE);
	protect_shared(PROT_READ | PROT_WRITE);
}

/* In the signal handler: only appends to the array made beforehand. */
static bool
report(int thread, uintptr_t pc, const void *addr, bool write)
{
	if (nacc == cap) {
		/* enough for an average: let the block finish at full speed */
		dropped = true;
		unprotect_all();
		return false;
	}
	/* a trapped access shows its address, not its width: counted as a word */
	acc[nacc++] = (struct sim_access){ thread, 0, pc, (uintptr_t)addr, write, in_shared(addr), 4 };
	return true;
}

static void
protect_block_memory(void)
{
	sim_allocs_protect(PROT_NONE);
	protect_shared(PROT_NONE);
}

/* The bytes the lanes [a, a + n) ask for, a byte read by several lanes once (a broadcast). */
static unsigned
distinct_bytes(const struct sim_access *a, size_t n)
{
	unsigned bytes = 0;

	for (size_t i = 0; i < n; i++) {
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = a[j].addr == a[i].addr;
		bytes += seen ? 0 : a[i].size;
	}
	return bytes;
}

/*
 * Shared memory serves a warp's request in phases (32-bit accesses: one
 * phase of 32 lanes; 64-bit: two of 16; 128-bit: four of 8); in each, the
 * lanes that want different words of one bank wait in turn. Returns the
 * wavefronts; *ideal gets the phases, the fewest there can be.
 */
static unsigned
shared_wavefronts(const struct sim_access *a, size_t n, unsigned *ideal)
{
	unsigned size = a->size >= 4 ? a->size : 4, lanes_per_phase = 128 / size, total = 0;

	*ideal = 0;
	for (size_t start = 0; start < n;) {
		/* the lanes of one phase: threads in the same group of lanes_per_phase */
		int phase = (a[start].thread % SIM_WARP) / (int)lanes_per_phase;
		size_t end = start;
		unsigned words_in_bank[SIM_WARP] = { 0 }, most = 0;

		while (end < n && (a[end].thread % SIM_WARP) / (int)lanes_per_phase == phase)
			end++;
		for (size_t i = start; i < end; i++)
			for (uintptr_t w = a[i].addr / 4; w < (a[i].addr + size + 3) / 4; w++) {
				bool seen = false;

				/* lanes reading one word share it (a broadcast) */
				for (size_t j = start; j < i && !seen; j++)
					seen = w >= a[j].addr / 4 && w < (a[j].addr + size + 3) / 4;
				if (!seen && ++words_in_bank[w % SIM_WARP] > most)
					most = words_in_bank[w % SIM_WARP];
			}
		total += most;
		(*ideal)++;
		start = end;
	}
	return total;
}

/* One warp's accesses at one instruction: [a, a + n), in lane order; returns its wavefronts or sectors. */
static unsigned
count_request(const struct sim_access *a, size_t n, struct cudasimStats *into, unsigned *ideal)
{
	if (a->shared) {
		unsigned wavefronts = shared_wavefronts(a, n, ideal);

		into->shared_requests++;
		into->shared_wavefronts += wavefronts;
		into->shared_ideal += *ideal;
		return wavefronts;
	}
	unsigned sectors = 0;

	for (size_t i = 0; i < n; i++)
		for (uintptr_t s = a[i].addr / 32; s <= (a[i].addr + (a[i].size ? a[i].size : 1) - 1) / 32; s++) {
			bool seen = false;

			for (size_t j = 0; j < i && !seen; j++)
				seen = s >= a[j].addr / 32 && s <= (a[j].addr + (a[j].size ? a[j].size : 1) - 1) / 32;
			sectors += !seen;
		}
	/* the bytes asked for, contiguous and aligned, would fill this many sectors */
	*ideal = (distinct_bytes(a, n) + 31) / 32;
	if (*ideal == 0)
		*ideal = 1;
	if (a->write) {
		into->global_store_requests++;
		into->global_store_sectors += sectors;
		into->global_store_ideal += *ideal;
	} else {
		into->global_load_requests++;
		into->global_load_sectors += sectors;
		into->global_load_ideal += *ideal;
	}
	return sectors;
}

/*
 * Grouping accesses into requests is linear, not a sort: a block of a tiled
 * matmul makes a few hundred thousand accesses, and two qsorts of them were
 * most of a grading's time on the simulator. One hash table numbers each
 * thread's visits to an instruction (accesses arrive in each thread's program
 * order), a second gives each request (warp, instruction, visit, direction)
 * an index in order of first appearance; a counting sort then puts each
 * request's lanes together, in lane order.
 */
struct slot {
	uint64_t key_a, key_b;	/* 0, 0: empty; keys are stored plus one */
	unsigned value;
};

static struct slot *slots;
static size_t nslots;
static struct sim_access *sorted;
static unsigned *group_of, *group_count;
static size_t room;

static bool
grow(size_t n)
{
	if (n <= room)
		return true;
	size_t want = room ? room : 4096;

	while (want < n)
		want *= 2;
	free(slots), free(sorted), free(group_of), free(group_count);
	nslots = 2 * want;
	slots = malloc(nslots * sizeof(*slots));
	sorted = malloc(want * sizeof(*sorted));
	group_of = malloc(want * sizeof(*group_of));
	group_count = malloc((want + 1) * sizeof(*group_count));
	room = slots && sorted && group_of && group_count ? want : 0;
	return room != 0;
}

/* The slot of (a, b), made with value `fresh` when new; *made says which. */
static struct slot *
lookup(uint64_t a, uint64_t b, unsigned fresh, bool *made)
{
	uint64_t h = (a + 1) * 0x9E3779B97F4A7C15ull ^ (b + 1) * 0xC2B2AE3D27D4EB4Full;
	size_t i = (size_t)(h ^ h >> 29) & (nslots - 1);

	while (slots[i].key_a || slots[i].key_b) {
		if (slots[i].key_a == a + 1 && slots[i].key_b == b + 1) {
			*made = false;
			return &slots[i];
		}
		i = (i + 1) & (nslots - 1);
	}
	slots[i] = (struct slot){ a + 1, b + 1, fresh };
	*made = true;
	return &slots[i];
}

void
sim_requests_count(struct sim_access *a, size_t n, struct cudasimStats *into,
		   void (*each)(const struct sim_access *first, size_t lanes, unsigned units, unsigned ideal))
{
	bool made;

	into->measured = 1;
	if (!n || !grow(n))
		return;
	memset(slots, 0, nslots * sizeof(*slots));
	for (size_t i = 0; i < n; i++)
		a[i].seq = lookup((uint64_t)a[i].thread, a[i].pc, 0, &made)->value++;
	memset(slots, 0, nslots * sizeof(*slots));
	unsigned groups = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t warp_visit = (uint64_t)(a[i].thread / SIM_WARP) << 33 | (uint64_t)a[i].seq << 1 | a[i].write;
		struct slot *s = lookup(warp_visit, a[i].pc, groups, &made);

		groups += made;
		group_of[i] = s->value;
	}
	memset(group_count, 0, (groups + 1) * sizeof(*group_count));
	for (size_t i = 0; i < n; i++)
		group_count[group_of[i] + 1]++;
	for (unsigned g = 0; g < groups; g++)
		group_count[g + 1] += group_count[g];
	for (size_t i = 0; i < n; i++)
		sorted[group_count[group_of[i]]++] = a[i];
	/* group_count[g] is now the end of group g */
	for (unsigned g = 0, begin = 0; g < groups; begin = group_count[g++]) {
		struct sim_access *r = &sorted[begin];
		size_t lanes = group_count[g] - begin;
		unsigned ideal;

		/* lane order, for the shared memory's phases; a request has at most a warp's lanes */
		for (size_t i = 1; i < lanes; i++)
			for (size_t j = i; j > 0 && r[j - 1].thread > r[j].thread; j--) {
				struct sim_access t = r[j];

				r[j] = r[j - 1];
				r[j - 1] = t;
			}
		unsigned units = count_request(r, lanes, into, &ideal);

		if (each)
			each(r, lanes, units, ideal);
	}
	memcpy(a, sorted, n * sizeof(*a));
}

static void
print_stats(void)
{
	fprintf(stderr, "cudasim: kernel '%s' block (0,0,0): ", sim_cur.site->kernel);
	if (last.global_load_requests)
		fprintf(stderr, "global loads %.1f sectors/request, ",
			(double)last.global_load_sectors / (double)last.global_load_requests);
	if (last.global_store_requests)
		fprintf(stderr, "global stores %.1f sectors/request, ",
			(double)last.global_store_sectors / (double)last.global_store_requests);
	if (last.shared_requests)
		fprintf(stderr, "shared %.1f wavefronts/request, ",
			(double)last.shared_wavefronts / (double)last.shared_requests);
	fprintf(stderr, "%zu accesses%s\n", nacc, dropped ? " (more were not kept)" : "");
}

static char *copy;	/* the memory before the measured run */

static void
finish(void)
{
	sim_measuring = sim_shared_protected = false;
	sim_block_started = NULL;
	sim_trace_end();
	unprotect_all();
	sim_allocs_restore(copy);
	sim_devvars_restore(2);
	free(copy);
	copy = NULL;
}

void
sim_measure_abandon(void)
{
	if (copy)
		finish();
}

void
sim_measure_launch(void)
{
	memset(&last, 0, sizeof(last));
	if (!measuring())
		return;
	if (!acc && !(acc = malloc(cap * sizeof(*acc))))
		return;
	copy = sim_allocs_snapshot();
	if (!copy)
		return;
	sim_devvars_snapshot(2);
	nacc = 0;
	dropped = false;
	if (sim_trace_begin(traced, report)) {
		uint3 first = { 0, 0, 0 };

		sim_block_started = protect_block_memory;
		sim_measuring = sim_shared_protected = true;
		sim_block_run(first, true);
		sim_measuring = sim_shared_protected = false;
		finish();
		sim_requests_count(acc, nacc, &last, NULL);
		if (getenv("CUDASIM_MEASURE"))
			print_stats();
	} else {
		finish();
	}
}
