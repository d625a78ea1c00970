/*
 * check_shared.c — the checks of shared memory (check.c's first comment
 * says what they find): a shadow word per 4 bytes holds the last writer and
 * readers, their block and barrier interval, so two threads in one interval,
 * one writing, are a race, and a read of a word the block never wrote is
 * uninitialized; a block of a cooperative launch parked at a grid.sync()
 * keeps its shadow words. Two threads that write one word in an interval
 * race only where they write different values (a flag every thread that
 * found something sets to 1 is one value on a GPU, whichever write lands):
 * the word's value after the first is kept, and the next access in the
 * interval compares what is there with it.
 *
 * Layer 6, one module with check.c: calls sched.c and smem.c.
 */
#include "lib/util.h"
#include "sim.h"

#include <stdlib.h>
#include <string.h>

#define NOBODY (-1)

struct word {
	unsigned wepoch, repoch;	/* the block of the last write, of the last reads */
	unsigned wgen, rgen;		/* and their barrier intervals */
	unsigned wwarp, rwarp;		/* and how many warp syncs their warps had passed */
	int writer, reader, reader2;	/* reader2: another reader in the same interval */
	uintptr_t wpc, rpc;
	/* two threads wrote it unordered in interval pgen of block pepoch: each write must leave pvalue,
	   which the first (pother, at ppc) wrote */
	bool pending;
	unsigned pepoch, pgen;
	int pother;
	uintptr_t ppc;
	uint32_t pvalue;
};

/* the words of the block's current interval that two threads wrote, judged at its barrier at the latest */
static struct pending_word {
	struct word *w;
	const char *word, *addr;
	long long offset;
} pending_words[256];
static int npending;

static struct word dyn_words[SIM_DYN_ARENA / 4];
static struct word *static_words;
static size_t nstatic_words;

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

/*
 * The writes of a word that two threads wrote unordered in this interval: the last one has landed (a
 * thread runs from its hook to its store without a switch), so a value other than the first's is a race
 * between the last writer and the first, whichever thread looks now. A later interval's or block's
 * look drops it: an atomic (not instrumented) may have changed the word since, and the order check's
 * second run sees a race whose value shows.
 */
static void
writes_agree(struct word *w, const char *word, const char *addr, long long offset)
{
	uint32_t now;

	if (!w->pending)
		return;
	if (w->pepoch != cudasim_block_epoch || w->pgen != sim_blk.gen) {
		w->pending = false;
		return;
	}
	memcpy(&now, word, 4);
	if (now == w->pvalue)
		return;
	w->pending = false;
	struct cudasimFinding *f = sim_check_finding(CUDASIM_RACE, addr, 4, true, w->wpc);
	if (!f)
		return;
	f->thread = sim_blk.th[w->writer].idx;
	f->shared = 1;
	f->offset = offset;
	sim_check_other_access(f, w->pother, true, w->ppc);
}

/* sched.c's hook as a barrier releases: every word two threads wrote in the interval it closes (a word
   whose last writes nobody looked at again in it) is judged now, before any thread goes on */
void
sim_check_shared_barrier(void)
{
	for (int i = 0; i < npending; i++)
		writes_agree(pending_words[i].w, pending_words[i].word, pending_words[i].addr, pending_words[i].offset);
	npending = 0;
}

static void
shared_word(struct word *w, const char *word, const char *addr, long long offset, bool write, uintptr_t pc)
{
	unsigned epoch = cudasim_block_epoch, gen = sim_blk.gen;
	int t = sim_blk.cur;
	unsigned warp_syncs = sim_blk.warp_gen[t / SIM_WARP];
	struct cudasimFinding *f = NULL;

	writes_agree(w, word, addr, offset);

	if (write) {
		bool read_now = w->repoch == epoch && w->rgen == gen;
		int reader = !read_now ? NOBODY : w->reader != t ? w->reader : w->reader2;

		if (reader != NOBODY && warp_ordered(t, reader, w->rwarp))
			reader = NOBODY;
		if (w->wepoch == epoch && w->wgen == gen && w->writer != t && !warp_ordered(t, w->writer, w->wwarp) &&
		    !w->pending) {
			/* judged at the word's next access, when this write has landed */
			w->pending = true;
			w->pepoch = epoch;
			w->pgen = gen;
			w->pother = w->writer;
			w->ppc = w->wpc;
			memcpy(&w->pvalue, word, 4);
			if (npending < (int)ARRAY_SIZE(pending_words))
				pending_words[npending++] = (struct pending_word){ w, word, addr, offset };
		}
		if (reader != NOBODY) {
			f = sim_check_finding(CUDASIM_RACE, addr, 4, true, pc);
			sim_check_other_access(f, reader, false, w->rpc);
		}
		w->wepoch = epoch;
		w->wgen = gen;
		w->wwarp = warp_syncs;
		w->writer = t;
		w->wpc = pc;
	} else {
		if (w->wepoch != epoch) {
			f = sim_check_finding(CUDASIM_UNINITIALIZED, addr, 4, false, pc);
		} else if (w->wgen == gen && w->writer != t && !warp_ordered(t, w->writer, w->wwarp)) {
			f = sim_check_finding(CUDASIM_RACE, addr, 4, false, pc);
			sim_check_other_access(f, w->writer, true, w->wpc);
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

void
sim_check_shared_access(bool dynamic, const char *base, const char *p, unsigned size, bool write, uintptr_t pc)
{
	struct word *words = dynamic ? dyn_words : NULL;
	size_t lo = (size_t)(p - base) / 4, hi = (size_t)(p - base + size - 1) / 4;

	for (size_t i = lo; i <= hi; i++) {
		struct word *w = words ? &words[i] : static_word(i);

		if (w)
			shared_word(w, base + 4 * i, p, (long long)(p - base), write, pc);
	}
	sim_check_keep(p, size, write, true, pc);
}

/* Past the dynamic shared memory asked for (kind 1), or past a __shared__ variable (2), into the gap after it. */
void
sim_check_shared_out_of_bounds(const char *p, unsigned size, bool write, uintptr_t pc, int kind, size_t offset, size_t extent)
{
	struct cudasimFinding *f = sim_check_finding(CUDASIM_OUT_OF_BOUNDS, p, size, write, pc);

	if (f) {
		f->shared = kind;
		f->offset = (long long)offset;
		f->extent = (long long)extent;
	}
}

struct parked_words {
	size_t ndyn, nstatic;
	struct word w[];
};

void *
sim_check_shared_park(void)
{
	size_t ndyn = sim_cur.smem / 4 + 1, nstatic = nstatic_words;
	struct parked_words *p = malloc(sizeof(*p) + (ndyn + nstatic) * sizeof(struct word));

	if (!p)
		return NULL;
	p->ndyn = ndyn;
	p->nstatic = nstatic;
	memcpy(p->w, dyn_words, ndyn * sizeof(struct word));
	if (nstatic)
		memcpy(p->w + ndyn, static_words, nstatic * sizeof(struct word));
	return p;
}

void
sim_check_shared_resume(void *state)
{
	struct parked_words *p = state;

	if (!p)
		return;
	memcpy(dyn_words, p->w, p->ndyn * sizeof(struct word));
	if (p->nstatic && p->nstatic <= nstatic_words)
		memcpy(static_words, p->w + p->ndyn, p->nstatic * sizeof(struct word));
}
