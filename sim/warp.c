/*
 * warp.c — the warp functions (__shfl*_sync, __ballot_sync, __syncwarp,
 * __activemask, __match*, __reduce*): a lane waits until every lane its mask
 * names has come, then each gets its result; lanes that never come are a
 * divergence.
 *
 * Layer 2, one module with sched.c: a waiting lane blocks in the scheduler
 * (sim_block_thread), and the scheduler's deadlock report asks this file for
 * the groups that can still complete (sim_warp_complete_activemasks).
 */
#include "lib/util.h"
#include "sim.h"

#include <string.h>

static unsigned
warp_exists(int w)
{
	int nl = sim_blk.n - w * SIM_WARP;

	return nl >= SIM_WARP ? 0xffffffffu : (1u << nl) - 1;
}

const char *
sim_warp_op_name(int op)
{
	static const char *const names[] = {
		"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
		"__ballot_sync", "__any_sync", "__all_sync", "__syncwarp",
		"__match_any_sync", "__match_all_sync", "__reduce_add_sync",
		"__reduce_min_sync", "__reduce_max_sync", "__activemask",
		"__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync",
	};
	return op >= 0 && op < (int)ARRAY_SIZE(names) ? names[op] : "a warp function";
}

/* Every lane of the group has arrived: compute what each one gets. */
static void
warp_complete(int w, struct sim_warp_group *g)
{
	struct sim_thread *lanes = &sim_blk.th[w * SIM_WARP];
	unsigned m = g->mask, bits = 0;

	/* the lanes met: what each did before is ordered before what any does after (check.c); not so
	   for __activemask, which only asks who is here */
	if (g->op != CUDASIM_ACTIVEMASK)
		sim_blk.warp_gen[w]++;
	long long lo = LLONG_MAX, hi = LLONG_MIN;
	unsigned long long sum = 0;

	for (int l = 0; l < SIM_WARP; l++) {
		if (!(m >> l & 1))
			continue;
		long long v = (long long)lanes[l].warp_in;

		bits |= (lanes[l].warp_in != 0) << l;
		sum += lanes[l].warp_in;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	for (int l = 0; l < SIM_WARP; l++) {
		struct sim_thread *th = &lanes[l];
		int width = th->warp_width, seg = l & ~(width - 1), src = l;
		unsigned long long out = th->warp_in;

		if (!(m >> l & 1))
			continue;
		switch (g->op) {
		case CUDASIM_SHFL:
			src = seg + (th->warp_arg & (width - 1));
			break;
		case CUDASIM_SHFL_UP:
			src = l - th->warp_arg >= seg ? l - th->warp_arg : l;
			break;
		case CUDASIM_SHFL_DOWN:
			src = l + th->warp_arg < seg + width ? l + th->warp_arg : l;
			break;
		case CUDASIM_SHFL_XOR:
			src = l ^ (th->warp_arg & 31);
			src = src < seg + width ? src : l;
			break;
		case CUDASIM_BALLOT:
			out = bits;
			break;
		case CUDASIM_ANY:
			out = bits != 0;
			break;
		case CUDASIM_ALL:
			out = bits == m;
			break;
		case CUDASIM_MATCH_ANY:
			out = 0;
			for (int o = 0; o < SIM_WARP; o++)
				if ((m >> o & 1) && lanes[o].warp_in == th->warp_in)
					out |= 1ull << o;
			break;
		case CUDASIM_REDUCE_ADD:
			out = (unsigned)sum;
			break;
		case CUDASIM_REDUCE_MIN:
			out = (unsigned long long)lo;
			break;
		case CUDASIM_REDUCE_MAX:
			out = (unsigned long long)hi;
			break;
		case CUDASIM_ACTIVEMASK:
			out = m;
			break;
		case CUDASIM_REDUCE_AND:
		case CUDASIM_REDUCE_OR:
		case CUDASIM_REDUCE_XOR:
			out = g->op == CUDASIM_REDUCE_AND ? 0xffffffffu : 0;
			for (int o = 0; o < SIM_WARP; o++)
				if (m >> o & 1)
					out = g->op == CUDASIM_REDUCE_AND ? out & lanes[o].warp_in :
					      g->op == CUDASIM_REDUCE_OR ? out | lanes[o].warp_in : out ^ lanes[o].warp_in;
			break;
		default:
			break;
		}
		if (g->op <= CUDASIM_SHFL_XOR)
			out = (m >> src & 1) ? lanes[src].warp_in : th->warp_in;
		th->warp_out = out;
		if (th->state == T_WARP)
			th->state = T_READY;
	}
	g->arrived = 0;
}

/* A lane joins group g: the last one to come completes it and goes on at once; the others wait. */
static unsigned long long
arrive(struct sim_thread *th, int w, int lane, struct sim_warp_group *g, const char *file, int line)
{
	g->arrived |= 1u << lane;
	th->file = file;
	th->line = line;
	if (g->arrived == g->mask) {
		warp_complete(w, g);
		th->state = T_RUN;
		return th->warp_out;
	}
	th->state = T_WARP;
	sim_block_thread(th);
	return th->warp_out;
}

/* The lanes of warp w that have not exited. */
static unsigned
warp_live(int w)
{
	unsigned m = 0;

	for (int l = 0; l < SIM_WARP && w * SIM_WARP + l < sim_blk.n; l++)
		if (sim_blk.th[w * SIM_WARP + l].state != T_DONE)
			m |= 1u << l;
	return m;
}

/*
 * __activemask(): the lanes that get here together. Threads run one at a time, so a lane waits here
 * until every live lane of its warp has come, or until no thread of the block can go on (the others
 * took another branch to a barrier, a warp function or the end): stuck() then completes the group
 * with the lanes that came.
 */
static unsigned long long
activemask_arrive(struct sim_thread *th, int w, int lane, const char *file, int line)
{
	struct sim_warp_group *g = NULL, *free_g = NULL;

	for (int k = 0; k < SIM_WARP_GROUPS && !g; k++) {
		struct sim_warp_group *c = &sim_blk.wg[w][k];

		if (!c->arrived)
			free_g = free_g ? free_g : c;
		else if (c->op == CUDASIM_ACTIVEMASK && c->line == line && c->file == file)
			g = c;
	}
	if (!g && !free_g) {
		sim_error(cudaErrorLaunchFailure,
			  "warp divergence: %s calls __activemask at %s:%d while %d other groups of lanes of its "
			  "warp wait in other warp functions", sim_where(), file, line, SIM_WARP_GROUPS);
		sim_block_fail();
	}
	if (!g) {
		g = free_g;
		g->op = CUDASIM_ACTIVEMASK;
		g->file = file;
		g->line = line;
	}
	g->mask = warp_live(w);
	return arrive(th, w, lane, g, file, line);
}

/* stuck(): an __activemask group still waiting gets the lanes that came; true if one did. */
bool
sim_warp_complete_activemasks(void)
{
	bool any = false;

	for (int w = 0; w < (sim_blk.n + SIM_WARP - 1) / SIM_WARP; w++)
		for (int k = 0; k < SIM_WARP_GROUPS; k++) {
			struct sim_warp_group *g = &sim_blk.wg[w][k];

			if (g->arrived && g->op == CUDASIM_ACTIVEMASK) {
				g->mask = g->arrived;
				warp_complete(w, g);
				any = true;
			}
		}
	return any;
}

unsigned long long
cudasim_warp(int op, unsigned mask, unsigned long long v, int arg, int width,
	     const char *file, int line)
{
	struct sim_block *b = &sim_blk;
	struct sim_thread *th;
	struct sim_warp_group *g, *free_g = NULL;
	int t = b->cur, w, lane;
	unsigned m;

	if (!sim_cur.active || t < 0)
		return v;
	th = &b->th[t];
	w = t / SIM_WARP;
	lane = t % SIM_WARP;
	m = mask & warp_exists(w);
	if (width <= 0 || width > SIM_WARP || (width & (width - 1))) {
		sim_error(cudaErrorLaunchFailure,
			  "%s calls %s at %s:%d with width %d; the width must be a power "
			  "of two from 1 to 32", sim_where(), sim_warp_op_name(op), file, line, width);
		sim_block_fail();
	}
	if (!(m >> lane & 1)) {
		sim_error(cudaErrorLaunchFailure,
			  "%s calls %s at %s:%d with mask 0x%08x, which leaves out its own "
			  "lane %d; a lane that calls a warp function must be in its mask",
			  sim_where(), sim_warp_op_name(op), file, line, mask, lane);
		sim_block_fail();
	}
	if (op == CUDASIM_ACTIVEMASK)
		return activemask_arrive(th, w, lane, file, line);
	for (int l = 0; l < SIM_WARP; l++)
		if ((m >> l & 1) && b->th[w * SIM_WARP + l].state == T_DONE) {
			char w1[96];

			sim_where_thread(w1, sizeof(w1), w * SIM_WARP + l);
			sim_error(cudaErrorLaunchFailure,
				  "warp divergence: %s calls %s at %s:%d with mask 0x%08x, but "
				  "lane %d (%s) has already exited; every lane named in the mask "
				  "must call the same warp function",
				  sim_where(), sim_warp_op_name(op), file, line, mask, l, w1);
			sim_block_fail();
		}
	/* Lanes with disjoint masks (the two sides of an if) wait in groups of their own. */
	g = NULL;
	for (int k = 0; k < SIM_WARP_GROUPS; k++) {
		struct sim_warp_group *c = &b->wg[w][k];

		if (!c->arrived) {
			free_g = free_g ? free_g : c;
			continue;
		}
		if (!(c->mask & m) || c->op == CUDASIM_ACTIVEMASK)
			continue;
		if (c->mask == m && c->op == op && c->line == line) {
			g = c;
			continue;
		}
		/*
		 * Another function over overlapping lanes, as when tiles of one warp shuffle apart and then
		 * the whole warp together: fine until each waits for the other (this lane is in that group's
		 * mask, and a lane of ours already waits there), which no order of the lanes can finish.
		 */
		if ((c->mask >> lane & 1) && (c->arrived & m)) {
			sim_error(cudaErrorLaunchFailure,
				  "warp divergence: %s calls %s at %s:%d (mask 0x%08x) while "
				  "other lanes of its warp wait in %s at %s:%d (mask 0x%08x); "
				  "the lanes of a mask must call the same warp function together",
				  sim_where(), sim_warp_op_name(op), file, line, m,
				  sim_warp_op_name(c->op), c->file, c->line, c->mask);
			sim_block_fail();
		}
	}
	if (!g) {
		if (!free_g) {
			sim_error(cudaErrorLaunchFailure,
				  "warp divergence: %s calls %s at %s:%d while %d other groups of "
				  "lanes of its warp wait in other warp functions",
				  sim_where(), sim_warp_op_name(op), file, line, SIM_WARP_GROUPS);
			sim_block_fail();
		}
		g = free_g;
		g->mask = m;
		g->op = op;
		g->file = file;
		g->line = line;
	}
	th->warp_in = v;
	th->warp_arg = arg;
	th->warp_width = width;
	return arrive(th, w, lane, g, file, line);
}
