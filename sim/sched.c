/*
 * sched.c — running the threads of one block.
 *
 * Every thread starts as a plain call on the scheduler's stack, so a kernel
 * that never reaches a barrier costs one function call per thread and no
 * context switch. A thread that blocks (at __syncthreads() or a warp
 * function) keeps the stack it stands on, and the scheduler moves to a fresh
 * one: the thread has become a fiber. Threads run in sweeps, in one order
 * (forward: thread 0 first) or the other (reverse); when a sweep finds no
 * thread that can run, every live thread waits, and the scheduler releases
 * the barrier, or reports a divergence or a deadlock.
 *
 * Layer 2: owns the block's state (sim_blk), which the layers above read;
 * calls error.c, current_launch.c and fiber.c, and hears check.c and measure.c only
 * through the hooks they set (sim_exited_past, sim_barrier_diverged,
 * sim_block_started, sim_shared_protected).
 */
#include "sim.h"
#include "fill.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct sim_block sim_blk;
bool sim_grid_parks;
void *(*sim_block_parking)(void);
void (*sim_block_resuming)(void *state);
void (*sim_block_started)(void);
bool (*sim_exited_past)(int thread, const char *file, int line);
void (*sim_barrier_diverged)(void);
bool sim_shared_protected;
/* What kernel code reads of the simulator's, in a section of their own, which check.c lets it read. */
#define BUILTIN __attribute__((section("cudasim_builtins")))
BUILTIN uint3 threadIdx, blockIdx;
BUILTIN dim3 blockDim, gridDim;
BUILTIN unsigned cudasim_block_epoch = 1;
BUILTIN unsigned cudasim_atomic_epoch;	/* the block of the last atomic (cudasim.h's CUDASIM_NOTE) */
/* The dynamic shared memory of every block, at one address for the whole
 * program; its last page is a guard (fault.c protects it). */
char cudasim_dyn_smem[SIM_DYN_ARENA] __attribute__((aligned(4096)));

enum { T_RUN = T_DONE + 1 };

static void sched_entry(void) __attribute__((noreturn));
static const char *warp_op_name(int op);
static bool complete_activemasks(void);

static void
where_thread(char *buf, size_t n, int t)
{
	uint3 i = sim_blk.th[t].idx;

	snprintf(buf, n, "thread (%u,%u,%u) of block (%u,%u,%u)",
		 i.x, i.y, i.z, blockIdx.x, blockIdx.y, blockIdx.z);
}

const char *
sim_where(void)
{
	static char buf[96];

	if (sim_blk.cur < 0)
		snprintf(buf, sizeof(buf), "block (%u,%u,%u)",
			 blockIdx.x, blockIdx.y, blockIdx.z);
	else
		where_thread(buf, sizeof(buf), sim_blk.cur);
	return buf;
}

static inline void
enter(int t)
{
	sim_blk.cur = t;
	sim_blk.th[t].state = T_RUN;
	threadIdx = sim_blk.th[t].idx;
}

static void __attribute__((noreturn))
sched_finish(void)
{
	struct sim_stack *s = sim_blk.sched_stack;

	sim_blk.sched_stack = NULL;
	sim_stack_put(s);
	cudasim_ctx_jump(sim_blk.launcher_sp);
}

/* End the block with a launch failure; the detail is already written. */
static void __attribute__((noreturn))
fail(void)
{
	sim_blk.failed = true;
	if (sim_blk.cur >= 0) {
		struct sim_thread *th = &sim_blk.th[sim_blk.cur];

		/* Called from the thread itself: save nothing, it never resumes. */
		if (!th->stack) {
			th->stack = sim_blk.sched_stack;
			sim_blk.sched_stack = NULL;
		}
		cudasim_ctx_jump(sim_blk.launcher_sp);
	}
	sched_finish();
}

/* A stack from fiber.c's pool, or the end of the launch when memory runs out. */
static struct sim_stack *
stack_get(void)
{
	struct sim_stack *s = sim_stack_get();

	if (!s) {
		sim_error(cudaErrorLaunchOutOfResources,
			  "no memory left for another thread's stack (%s waits at a barrier "
			  "with %d others)", sim_where(), sim_blk.n - 1);
		sim_abandon(cudaErrorLaunchOutOfResources);
	}
	return s;
}

static void
run_new(int t)
{
	struct sim_stack *mine = sim_blk.sched_stack;
	struct sim_thread *th = &sim_blk.th[t];

	enter(t);
	th->stack = NULL;
	sim_blk.thunk(sim_blk.closure);
	th->state = T_DONE;
	sim_blk.ndone++;
	sim_blk.cur = -1;
	if (sim_blk.sched_stack != mine) {
		/* The thread blocked once and kept this stack; the scheduler lives
		 * on another one now and resumed the thread from there. */
		th->stack = NULL;
		sim_stack_put(mine);
		cudasim_ctx_jump(sim_blk.sched_sp);
	}
}

static void
resume(int t)
{
	enter(t);
	cudasim_ctx_swap(&sim_blk.sched_sp, sim_blk.th[t].sp);
	sim_blk.cur = -1;
}

/* Called by the running thread, whose state says what it waits for. */
static void
block_thread(struct sim_thread *th)
{
	if (!th->stack) {
		void *sp;

		th->stack = sim_blk.sched_stack;
		sim_blk.sched_stack = stack_get();
		sp = sim_ctx_make(sim_blk.sched_stack, sched_entry);
		cudasim_ctx_swap(&th->sp, sp);
	} else {
		cudasim_ctx_swap(&th->sp, sim_blk.sched_sp);
	}
}

static bool
same_site(const struct sim_thread *a, const struct sim_thread *b)
{
	return a->line == b->line && (a->file == b->file || !strcmp(a->file, b->file));
}

/*
 * Every thread that has not exited waits at a barrier: release it. Exited
 * threads count as arrived, as PTX's exit says (a GPU releases a barrier that
 * only exited threads hold up), so `if (i >= n) return;` before a
 * __syncthreads() the others reach is fine. Not so a thread that went on
 * past this barrier to the end while the others wait there: one that waited
 * here before (the barrier of a loop inside an if that not every thread
 * takes), or one that used memory further down (an if around the barrier):
 * on a GPU its warp reached the barrier divided, which compute-sanitizer's
 * synccheck reports and PTX leaves undefined.
 */
static void
release_barrier(void)
{
	struct sim_block *b = &sim_blk;
	int count = 0, and_ = 1, or_ = 0, first = -1;

	for (int t = 0; t < b->n && first < 0; t++)
		if (b->th[t].state == T_BAR)
			first = t;
	for (int t = 0; t < b->n; t++) {
		struct sim_thread *th = &b->th[t];
		char w0[96], w1[96];

		if (th->state == T_DONE) {
			bool again = th->bar_file && th->bar_line == b->th[first].line &&
				     !strcmp(th->bar_file, b->th[first].file);

			if (again || (sim_exited_past && sim_exited_past(t, b->th[first].file, b->th[first].line))) {
				if (sim_barrier_diverged)
					sim_barrier_diverged();
				where_thread(w0, sizeof(w0), first);
				where_thread(w1, sizeof(w1), t);
				sim_error(cudaErrorLaunchFailure,
					  "barrier divergence: %s waits at the __syncthreads() of %s:%d, "
					  "but %s%s finished the kernel without reaching it%s; every thread of "
					  "a block must reach the same __syncthreads() (is it inside an if, or "
					  "a loop, that not every thread takes?)", w0, b->th[first].file,
					  b->th[first].line, w1, again ? ", which waited there before," : "",
					  again ? " again" : " (it went on past it)");
				fail();
			}
			continue;
		}
		if (!same_site(th, &b->th[first])) {
			where_thread(w0, sizeof(w0), first);
			where_thread(w1, sizeof(w1), t);
			sim_error(cudaErrorLaunchFailure,
				  "barrier divergence: %s waits at the __syncthreads() of %s:%d "
				  "while %s waits at the one of %s:%d; every thread of a block "
				  "must reach the same __syncthreads() (is it inside an if "
				  "that not all threads take?)",
				  w0, b->th[first].file, b->th[first].line, w1, th->file, th->line);
			fail();
		}
		count += th->pred != 0;
		and_ &= th->pred != 0;
		or_ |= th->pred != 0;
	}
	b->bar_result = count;
	b->bar_and = and_;
	b->bar_or = or_;
	for (int t = 0; t < b->n; t++)
		if (b->th[t].state == T_BAR)
			b->th[t].state = T_READY;
	b->nbar = 0;
	b->gen++;
}

static const char *
describe_wait(const struct sim_thread *th, char *buf, size_t n)
{
	if (th->state == T_BAR)
		snprintf(buf, n, "waits at the __syncthreads() of %s:%d", th->file, th->line);
	else if (th->state == T_WARP)
		snprintf(buf, n, "waits at the warp function of %s:%d", th->file, th->line);
	else
		snprintf(buf, n, "has exited");
	return buf;
}

/* No thread could run in a whole sweep: release the barrier or report why not. */
static void
stuck(void)
{
	struct sim_block *b = &sim_blk;
	int waiting = -1, other = -1;
	char w0[96], w1[96], d0[160], d1[160];

	if (b->nbar && b->nbar + b->ndone == b->n) {
		int first = 0;

		while (b->th[first].state != T_BAR)
			first++;
		if (b->th[first].grid && sim_grid_parks) {
			/* the others blocks must get here too: back to the launch, which resumes this one later */
			b->parked = true;
			cudasim_ctx_swap(&b->park_sp, b->launcher_sp);
			b->parked = false;
		}
		release_barrier();
		return;
	}
	if (complete_activemasks())
		return;
	for (int t = 0; t < b->n; t++)
		if (b->th[t].state == T_BAR || b->th[t].state == T_WARP) {
			waiting = t;
			break;
		}
	/* exited threads hold nothing up (release_barrier): the other one is alive */
	for (int t = 0; t < b->n; t++)
		if (t != waiting && b->th[t].state != T_DONE &&
		    (b->th[t].state != b->th[waiting].state || !same_site(&b->th[t], &b->th[waiting]))) {
			other = t;
			break;
		}
	where_thread(w0, sizeof(w0), waiting);
	describe_wait(&b->th[waiting], d0, sizeof(d0));
	if (b->th[waiting].state == T_WARP) {
		struct sim_warp_group *g = b->wg[waiting / SIM_WARP];
		int base = waiting / SIM_WARP * SIM_WARP;

		while (!(g->arrived >> (waiting % SIM_WARP) & 1))
			g++;		/* the group the thread waits in */
		for (int l = 0; l < SIM_WARP; l++)
			if ((g->mask >> l & 1) && b->th[base + l].state == T_DONE) {
				where_thread(w1, sizeof(w1), base + l);
				sim_error(cudaErrorLaunchFailure,
					  "warp divergence: %s waits in %s at %s:%d with mask "
					  "0x%08x, but lane %d (%s) has already exited; every lane "
					  "named in the mask must call the same warp function",
					  w0, warp_op_name(g->op), g->file, g->line, g->mask, l, w1);
				fail();
			}
	}
	if (other < 0) {
		/* Every live thread waits at one warp function that cannot complete. */
		sim_error(cudaErrorLaunchFailure,
			  "deadlock: %s %s, but not every lane named in its mask reaches it",
			  w0, d0);
		fail();
	}
	where_thread(w1, sizeof(w1), other);
	describe_wait(&b->th[other], d1, sizeof(d1));
	sim_error(cudaErrorLaunchFailure,
		  "deadlock: %s %s while %s %s; no thread of the block can go on",
		  w0, d0, w1, d1);
	fail();
}

static void
sched_entry(void)
{
	struct sim_block *b = &sim_blk;

	for (;;) {
		while (b->k < b->n) {
			int t = b->forward ? b->k : b->n - 1 - b->k;

			b->k++;
			if (b->th[t].state == T_NEW) {
				/* set first: a thread that blocks leaves this frame behind */
				b->ran = true;
				run_new(t);
			} else if (b->th[t].state == T_READY) {
				b->ran = true;
				resume(t);
			}
		}
		if (b->ndone == b->n)
			sched_finish();
		if (!b->ran)
			stuck();
		b->k = 0;
		b->ran = false;
	}
}

/* The running thread waits at a barrier of file:line (grid: a grid.sync()) with its predicate. */
static void
wait_at_barrier(bool grid, int pred, const char *file, int line)
{
	struct sim_thread *th = &sim_blk.th[sim_blk.cur];

	th->grid = grid;
	th->state = T_BAR;
	th->file = th->bar_file = file;
	th->line = th->bar_line = line;
	th->pred = pred;
	sim_blk.nbar++;
	block_thread(th);
}

void
cudasim_syncthreads(const char *file, int line)
{
	if (!sim_cur.active || sim_blk.cur < 0)
		return;		/* host code: nothing to wait for */
	wait_at_barrier(false, 0, file, line);
}

int
cudasim_syncthreads_op(int op, int pred, const char *file, int line)
{
	if (!sim_cur.active || sim_blk.cur < 0)
		return pred != 0;	/* host code: a block of one */
	wait_at_barrier(false, pred, file, line);
	switch (op) {
	case CUDASIM_BAR_AND:
		return sim_blk.bar_and;
	case CUDASIM_BAR_OR:
		return sim_blk.bar_or;
	default:
		return sim_blk.bar_result;
	}
}

/*
 * grid.sync() of cooperative_groups: a barrier of the block that, in a
 * cooperative launch's whole grid, also waits for every other block
 * (launch.c runs the blocks in rounds, each to its next grid.sync()).
 */
void
cudasim_grid_sync(const char *file, int line)
{
	if (!sim_cur.active || sim_blk.cur < 0)
		return;
	if (!sim_cur.cooperative) {
		sim_error(cudaErrorLaunchFailure,
			  "%s calls grid.sync() at %s:%d in a kernel launched with <<<>>>: a grid-wide sync needs "
			  "a cooperative launch (cudaLaunchCooperativeKernel, with a grid that fits on the GPU at "
			  "once), or on a GPU it never returns", sim_where(), file, line);
		fail();
	}
	wait_at_barrier(true, 0, file, line);
}

static unsigned
warp_exists(int w)
{
	int nl = sim_blk.n - w * SIM_WARP;

	return nl >= SIM_WARP ? 0xffffffffu : (1u << nl) - 1;
}

static const char *
warp_op_name(int op)
{
	static const char *const names[] = {
		"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
		"__ballot_sync", "__any_sync", "__all_sync", "__syncwarp",
		"__match_any_sync", "__match_all_sync", "__reduce_add_sync",
		"__reduce_min_sync", "__reduce_max_sync", "__activemask",
		"__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync",
	};
	return op >= 0 && op < (int)(sizeof(names) / sizeof(names[0])) ? names[op] : "a warp function";
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
	block_thread(th);
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
		fail();
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
static bool
complete_activemasks(void)
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
			  "of two from 1 to 32", sim_where(), warp_op_name(op), file, line, width);
		fail();
	}
	if (!(m >> lane & 1)) {
		sim_error(cudaErrorLaunchFailure,
			  "%s calls %s at %s:%d with mask 0x%08x, which leaves out its own "
			  "lane %d; a lane that calls a warp function must be in its mask",
			  sim_where(), warp_op_name(op), file, line, mask, lane);
		fail();
	}
	if (op == CUDASIM_ACTIVEMASK)
		return activemask_arrive(th, w, lane, file, line);
	for (int l = 0; l < SIM_WARP; l++)
		if ((m >> l & 1) && b->th[w * SIM_WARP + l].state == T_DONE) {
			char w1[96];

			where_thread(w1, sizeof(w1), w * SIM_WARP + l);
			sim_error(cudaErrorLaunchFailure,
				  "warp divergence: %s calls %s at %s:%d with mask 0x%08x, but "
				  "lane %d (%s) has already exited; every lane named in the mask "
				  "must call the same warp function",
				  sim_where(), warp_op_name(op), file, line, mask, l, w1);
			fail();
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
				  sim_where(), warp_op_name(op), file, line, m,
				  warp_op_name(c->op), c->file, c->line, c->mask);
			fail();
		}
	}
	if (!g) {
		if (!free_g) {
			sim_error(cudaErrorLaunchFailure,
				  "warp divergence: %s calls %s at %s:%d while %d other groups of "
				  "lanes of its warp wait in other warp functions",
				  sim_where(), warp_op_name(op), file, line, SIM_WARP_GROUPS);
			fail();
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

/*
 * The arena of static __shared__ variables: each declaration takes a slot
 * the first time it runs and keeps it, so its address is fixed; pages of
 * their own let measure.c watch them. Slots are never given back: their
 * number is that of the declarations in the program.
 */
#define STATIC_ARENA (64ul << 20)
#define SLOT_ALIGN 128

BUILTIN char *cudasim_static_smem;
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

	if (nglobals < (int)(sizeof(globals) / sizeof(globals[0]))) {
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

void
sim_dyn_smem_unfence(void)
{
	mprotect(cudasim_dyn_smem, SIM_DYN_ARENA - 4096, PROT_READ | PROT_WRITE);
}

static bool block_ended(void);

bool
sim_block_run(uint3 bid, bool forward)
{
	struct sim_block *b = &sim_blk;
	int bx = (int)blockDim.x, by = (int)blockDim.y;
	void *sp;

	b->forward = forward;
	b->k = 0;
	b->ran = false;
	b->ndone = 0;
	b->nbar = 0;
	b->gen = 0;
	memset(b->warp_gen, 0, sizeof(b->warp_gen));
	b->cur = -1;
	b->failed = false;
	b->parked = false;
	b->static_smem = 0;
	for (int t = 0; t < b->n; t++) {
		b->th[t].state = T_NEW;
		b->th[t].stack = NULL;
		b->th[t].bar_file = NULL;
		b->th[t].idx.x = (unsigned)(t % bx);
		b->th[t].idx.y = (unsigned)(t / bx % by);
		b->th[t].idx.z = (unsigned)(t / (bx * by));
	}
	for (int w = 0; w < (b->n + SIM_WARP - 1) / SIM_WARP; w++)
		for (int k = 0; k < SIM_WARP_GROUPS; k++)
			b->wg[w][k].arrived = 0;
	blockIdx = bid;
	cudasim_block_epoch++;
	for (int i = 0; i < nglobals; i++)
		fill_shared(globals[i].p, globals[i].n);
	fill_shared(cudasim_dyn_smem, sim_cur.smem);
	if (sim_block_started)
		sim_block_started();

	b->sched_stack = stack_get();
	sp = sim_ctx_make(b->sched_stack, sched_entry);
	cudasim_ctx_swap(&b->launcher_sp, sp);
	return block_ended();
}

/* The block's scheduler came back to the launch: it finished, failed or parked. */
static bool
block_ended(void)
{
	struct sim_block *b = &sim_blk;

	if (b->failed) {
		for (int t = 0; t < b->n; t++) {
			sim_stack_put(b->th[t].stack);
			b->th[t].stack = NULL;
		}
		sim_stack_put(b->sched_stack);
		b->sched_stack = NULL;
	}
	b->cur = -1;
	return !b->failed;
}

/* A parked block: the scheduler's state, its shared memory and what check.c keeps of it. */
struct sim_parked {
	struct sim_block blk;
	uint3 bid;
	unsigned epoch;
	size_t static_bytes, dyn_bytes;
	char *smem;		/* the static arena's used bytes, then the dynamic ones */
	void *check;		/* sim_block_parking's */
	const char *file;
	int line;
};

struct sim_parked *
sim_block_park(void)
{
	struct sim_parked *p = malloc(sizeof(*p));
	int first = 0;

	if (!p)
		return NULL;
	p->static_bytes = sim_static_smem_used();
	p->dyn_bytes = sim_cur.smem;
	p->smem = malloc(p->static_bytes + p->dyn_bytes + 1);
	if (!p->smem) {
		free(p);
		return NULL;
	}
	memcpy(&p->blk, &sim_blk, sizeof(sim_blk));
	p->bid = blockIdx;
	p->epoch = cudasim_block_epoch;
	if (p->static_bytes)
		memcpy(p->smem, cudasim_static_smem, p->static_bytes);
	memcpy(p->smem + p->static_bytes, cudasim_dyn_smem, p->dyn_bytes);
	p->check = sim_block_parking ? sim_block_parking() : NULL;
	while (first < sim_blk.n && sim_blk.th[first].state != T_BAR)
		first++;
	p->file = first < sim_blk.n ? sim_blk.th[first].file : "";
	p->line = first < sim_blk.n ? sim_blk.th[first].line : 0;
	return p;
}

const char *
sim_parked_where(const struct sim_parked *p, int *line, uint3 *block)
{
	*line = p->line;
	*block = p->bid;
	return p->file;
}

void
sim_parked_free(struct sim_parked *p)
{
	if (!p)
		return;
	free(p->smem);
	free(p->check);
	free(p);
}

bool
sim_block_resume(struct sim_parked *p)
{
	memcpy(&sim_blk, &p->blk, sizeof(sim_blk));
	blockIdx = p->bid;
	cudasim_block_epoch = p->epoch;
	if (p->static_bytes)
		memcpy(cudasim_static_smem, p->smem, p->static_bytes);
	memcpy(cudasim_dyn_smem, p->smem + p->static_bytes, p->dyn_bytes);
	if (sim_block_resuming)
		sim_block_resuming(p->check);
	sim_parked_free(p);
	cudasim_ctx_swap(&sim_blk.launcher_sp, sim_blk.park_sp);
	return block_ended();
}
