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
 * The warp functions are warp.c's, shared memory smem.c's.
 *
 * Layer 2: owns the block's state (sim_blk), which the layers above read;
 * calls error.c, current_launch.c and fiber.c, and hears check.c and measure.c only
 * through the hooks they set (sim_exited_past, sim_barrier_diverged,
 * sim_barrier_passing, sim_block_started, sim_shared_protected).
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
void (*sim_barrier_passing)(void);
bool sim_shared_protected;
/* What kernel code reads of the simulator's, in a section of their own, which check.c lets it read. */
SIM_BUILTIN uint3 threadIdx, blockIdx;
SIM_BUILTIN dim3 blockDim, gridDim;
SIM_BUILTIN unsigned cudasim_block_epoch = 1;
SIM_BUILTIN unsigned cudasim_atomic_epoch;	/* the block of the last atomic (cudasim.h's CUDASIM_NOTE) */

static void sched_entry(void) __attribute__((noreturn));

void
sim_where_thread(char *buf, size_t n, int t)
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
		sim_where_thread(buf, sizeof(buf), sim_blk.cur);
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
void
sim_block_fail(void)
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
void
sim_block_thread(struct sim_thread *th)
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
				sim_where_thread(w0, sizeof(w0), first);
				sim_where_thread(w1, sizeof(w1), t);
				sim_error(cudaErrorLaunchFailure,
					  "barrier divergence: %s waits at the __syncthreads() of %s:%d, "
					  "but %s%s finished the kernel without reaching it%s; every thread of "
					  "a block must reach the same __syncthreads() (is it inside an if, or "
					  "a loop, that not every thread takes?)", w0, b->th[first].file,
					  b->th[first].line, w1, again ? ", which waited there before," : "",
					  again ? " again" : " (it went on past it)");
				sim_block_fail();
			}
			continue;
		}
		if (!same_site(th, &b->th[first])) {
			sim_where_thread(w0, sizeof(w0), first);
			sim_where_thread(w1, sizeof(w1), t);
			sim_error(cudaErrorLaunchFailure,
				  "barrier divergence: %s waits at the __syncthreads() of %s:%d "
				  "while %s waits at the one of %s:%d; every thread of a block "
				  "must reach the same __syncthreads() (is it inside an if "
				  "that not all threads take?)",
				  w0, b->th[first].file, b->th[first].line, w1, th->file, th->line);
			sim_block_fail();
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
	if (sim_barrier_passing)
		sim_barrier_passing();
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
	if (sim_warp_complete_activemasks())
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
	sim_where_thread(w0, sizeof(w0), waiting);
	describe_wait(&b->th[waiting], d0, sizeof(d0));
	if (b->th[waiting].state == T_WARP) {
		struct sim_warp_group *g = b->wg[waiting / SIM_WARP];
		int base = waiting / SIM_WARP * SIM_WARP;

		while (!(g->arrived >> (waiting % SIM_WARP) & 1))
			g++;		/* the group the thread waits in */
		for (int l = 0; l < SIM_WARP; l++)
			if ((g->mask >> l & 1) && b->th[base + l].state == T_DONE) {
				sim_where_thread(w1, sizeof(w1), base + l);
				sim_error(cudaErrorLaunchFailure,
					  "warp divergence: %s waits in %s at %s:%d with mask "
					  "0x%08x, but lane %d (%s) has already exited; every lane "
					  "named in the mask must call the same warp function",
					  w0, sim_warp_op_name(g->op), g->file, g->line, g->mask, l, w1);
				sim_block_fail();
			}
	}
	if (other < 0) {
		/* Every live thread waits at one warp function that cannot complete. */
		sim_error(cudaErrorLaunchFailure,
			  "deadlock: %s %s, but not every lane named in its mask reaches it",
			  w0, d0);
		sim_block_fail();
	}
	sim_where_thread(w1, sizeof(w1), other);
	describe_wait(&b->th[other], d1, sizeof(d1));
	sim_error(cudaErrorLaunchFailure,
		  "deadlock: %s %s while %s %s; no thread of the block can go on",
		  w0, d0, w1, d1);
	sim_block_fail();
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
	sim_block_thread(th);
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
 * (grid.c runs the blocks in rounds, each to its next grid.sync()).
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
		sim_block_fail();
	}
	wait_at_barrier(true, 0, file, line);
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
	sim_smem_fill_block();
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
