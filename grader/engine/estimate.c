/*
 * estimate: the simulator's counts made into an estimated time on a GPU
 * (see estimate.h for the model in words, bench/estimate.md for its fit).
 */
#include "grader/engine/estimate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/exercise/manifest.h"

/*
 * A GPU's figures. The first group is the data sheet's (and the copy rate
 * measured on one); the second was fitted on the calibration set of
 * bench/estimate.md: how long a load takes when the memory is busy, how
 * many loads of a thread the compiler keeps in flight at once (it unrolls
 * loops the simulator runs one iteration at a time), the L2's rate, and
 * what a launch costs beyond its work.
 */
struct gpu_figures {
	const char *name;
	int sms, threads_per_sm, blocks_per_sm;
	double smem_per_sm;     /* bytes */
	double clock_ghz;
	double dram_gbps;       /* a device-to-device copy's rate */
	double l1_lines_per_clock, smem_wavefronts_per_clock; /* per SM */
	/* fitted */
	double latency_us, loads_in_flight, l2_gbps, launch_us;
};

static const struct gpu_figures h100 = {
	.name = "H100", .sms = 132, .threads_per_sm = 2048, .blocks_per_sm = 32, .smem_per_sm = 233472,
	.clock_ghz = 1.98, .dram_gbps = 2970, .l1_lines_per_clock = 1, .smem_wavefronts_per_clock = 1,
	.latency_us = 1.3, .loads_in_flight = 32, .l2_gbps = 5500, .launch_us = 2,
};

static double
work(const int *dims, int ndims)
{
	double w = 1;
	for (int d = 0; d < ndims; d++)
		w *= dims[d] > 0 ? dims[d] : 1;
	return w;
}

static double
product(const uint32_t v[3])
{
	return (double)v[0] * v[1] * v[2];
}

/* A count of the first blocks' requests (m->detail_blocks of them), for the whole measured launch: as many times
 * as the launch moved the bytes those blocks did (blocks that find no work count for nothing), or as it has blocks. */
static double
whole(const struct proto_launch *m, uint64_t count, uint64_t bytes, uint64_t detail_bytes)
{
	if (detail_bytes)
		return (double)count * (double)bytes / (double)detail_bytes;
	return m->detail_blocks ? (double)count * product(m->grid) / (double)m->detail_blocks : 0;
}

/* One launch at the timed size: m measured, t its shape there (NULL: the measured shape scaled), w the work ratio. */
static void
launch_time(const struct gpu_figures *g, const struct proto_launch *m, const struct proto_launch *t, double w,
	    bool per_block, struct estimate_side *side)
{
	double tpb = product(m->block), blocks = t ? product(t->grid) : product(m->grid) * w;
	if (t)
		tpb = product(t->block);
	/* a product's measured case keeps the timed length of its loop (cmdline_measured_dims): a block does the work
	   it does at the timed size, and the counts scale with the blocks (a tile larger than the measured case
	   still computes a whole tile) */
	if (t && per_block && product(m->grid) > 0)
		w = product(t->grid) / product(m->grid);
	/* a grid the work did not make larger, no larger than the simulator's few SMs hold, was sized to them (and
	   kept: `static int sms`): on this GPU it would have been sized to its SMs */
	if (t && w >= 4 && product(t->grid) == product(m->grid) && m->sms > 0 && (int)m->sms < g->sms &&
	    product(m->grid) <= (double)m->sms * g->blocks_per_sm)
		blocks *= (double)g->sms / (double)m->sms;
	double smem = t ? (double)(t->smem > m->smem ? t->smem : m->smem) : (double)m->smem;
	double threads = blocks * tpb;
	/* the counts scale with the work; the first blocks' requests stand for every block's */
	double loads = (double)m->loads * w, load_bytes = (double)m->load_bytes * w;
	double store_bytes = (double)m->store_bytes * w;
	double block_sectors = whole(m, m->load_block_sectors, m->load_bytes, m->detail_load_bytes) * w;
	double store_sectors = whole(m, m->store_sectors, m->store_bytes, m->detail_store_bytes) * w;
	/* a sector a store fills only in part is read from DRAM first and written back whole (ECC) */
	double partial = store_sectors > 0 ? fmax(0, 1 - store_bytes / (store_sectors * 32)) : 0;
	double lines = (whole(m, m->load_lines, m->load_bytes, m->detail_load_bytes) +
			whole(m, m->store_lines, m->store_bytes, m->detail_store_bytes)) * w;
	/* a broadcast (a tile's row read by a whole warp) costs a quarter: nvcc reads four steps of it at once */
	double wavefronts = (whole(m, m->shared_wavefronts, 0, 0) - 0.75 * whole(m, m->shared_broadcasts, 0, 0)) * w;
	/* L2 sees each block's sectors once (its L1 keeps what the block reads again); DRAM those again, but a
	   sector at most once for each of its 8 words: data other blocks read again stays in the L2 */
	double l2_bytes = (block_sectors + store_sectors) * 32;
	double dram_bytes = fmin(8.0 * (double)m->case_bytes * w, l2_bytes + store_sectors * 32 * partial);
	if (dram_bytes <= 0)
		dram_bytes = load_bytes + store_bytes;
	double dram_us = dram_bytes / (g->dram_gbps * 1e3), l2_us = l2_bytes / (g->l2_gbps * 1e3);
	/* the blocks an SM holds at once, by threads, blocks and shared memory (registers are not known here) */
	double warps_threads = ceil(tpb / 32) * 32, per_sm = g->blocks_per_sm;
	per_sm = fmin(per_sm, floor(g->threads_per_sm / warps_threads));
	if (smem > 0)
		per_sm = fmin(per_sm, floor(g->smem_per_sm / (smem + 1024)));
	if (per_sm < 1)
		per_sm = 1;
	double sms = fmin(g->sms, blocks), waves = fmax(1, blocks / (g->sms * per_sm));
	/* each wave waits for its threads' loads, as many at a time as a thread has between barriers */
	double per_thread = threads > 0 ? loads / threads : 0, per_thread_m = m->threads ? (double)m->loads / m->threads : 0;
	double per_interval = m->load_intervals ? (double)m->loads / m->load_intervals : 0;
	if (per_thread_m > 0 && per_thread > per_thread_m)
		per_interval *= per_thread / per_thread_m;
	double in_flight = fmax(1, fmin(g->loads_in_flight, per_interval));
	/* a round whose loads the block's L1 already holds (its sectors loaded before) waits little: the rounds
	   count as the share of sectors that miss, but a wave waits for memory once at least */
	double misses = m->load_sectors ? fmin(1, (double)m->load_block_sectors / (double)m->load_sectors) : 1;
	double rounds = per_thread > 0 ? fmax(1, per_thread / in_flight * misses) : 0;
	double latency_us = waves * rounds * g->latency_us;
	double l1_us = lines / sms / (g->l1_lines_per_clock * g->clock_ghz * 1e3);
	double shared_us = wavefronts / sms / (g->smem_wavefronts_per_clock * g->clock_ghz * 1e3);
	/* a wave's threads wait for memory, the L1's work on their requests in that path; the shared-memory work of
	   one block overlaps the waiting of another on the same SM, by half */
	double waves_us = fmax(latency_us + l1_us, shared_us) + 0.5 * fmin(latency_us + l1_us, shared_us);
	side->us += fmax(dram_us, fmax(l2_us, waves_us)) + g->launch_us;
	side->dram_us += dram_us;
	side->l2_us += l2_us;
	side->waves_us += waves_us;
	side->latency_us += latency_us;
	side->l1_us += l1_us;
	side->shared_us += shared_us;
	side->launches++;
	side->waves += waves;
	side->rounds += waves * rounds;
	side->lines += lines / sms;
	side->wavefronts += wavefronts / sms;
	side->sms = sms;
}

static bool
side_time(const struct gpu_figures *g, const struct proto_launch *measured, int n, const struct proto_launch *shapes,
	  int nshapes, double w, bool per_block, struct estimate_side *side)
{
	memset(side, 0, sizeof(*side));
	/* the shapes at the timed size go with the measured launches one to one, when the launcher made as many */
	for (int i = 0; i < n; i++)
		launch_time(g, &measured[i], nshapes == n ? &shapes[i] : NULL, w, per_block, side);
	return n > 0 && side->us > 0;
}

static const char *
bound(const struct estimate_side *s)
{
	if (s->dram_us >= s->l2_us && s->dram_us >= s->waves_us)
		return "DRAM";
	if (s->l2_us >= s->waves_us)
		return "L2";
	if (s->shared_us >= s->latency_us && s->shared_us >= s->l1_us)
		return "shared memory";
	return s->l1_us > s->latency_us ? "L1" : "latency";
}

void
estimate_make(const struct exercise *e, const int *measured_dims,
	      const struct proto_launch launches[4][PROTO_MAX_LAUNCHES], const int nlaunches[4], struct estimate *out)
{
	memset(out, 0, sizeof(*out));
	if (!e->has_timed || !measured_dims)
		return;
	double w = work(e->timed, e->ndims) / work(measured_dims, e->ndims);
	const struct gpu_figures *g = &h100;
	bool per_block = e->ndims >= 3;
	if (!side_time(g, launches[0], nlaunches[0], launches[2], nlaunches[2], w, per_block, &out->student) ||
	    !side_time(g, launches[1], nlaunches[1], launches[3], nlaunches[3], w, per_block, &out->reference))
		return;
	out->made = true;
	out->gpu = g->name;
	out->ratio = out->student.us / out->reference.us;
	out->threshold_ratio = e->threshold_ratio;
	out->bound = bound(&out->student);
	snprintf(out->text, sizeof(out->text), "estimated %.*f× the reference on an %s (from the simulator's counts; "
		 "a GPU decides)", out->ratio < 9.95 ? 2 : 1, out->ratio, g->name);
}
