/*
 * grid.c — a launch's blocks run: every block once, in one order or the
 * other; a cooperative launch's in rounds, each block to its next
 * grid.sync(), parked there until every block has come.
 *
 * Layer 7, below order.c and launch.c: calls error.c, fiber.c, sched.c and
 * check.c.
 */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

static uint3
block_of(unsigned long long l)
{
	dim3 g = sim_cur.grid;

	return (uint3){ (unsigned)(l % g.x), (unsigned)(l / g.x % g.y), (unsigned)(l / ((unsigned long long)g.x * g.y)) };
}

/* A cooperative launch's blocks waiting at a grid.sync(), by linear index (NULL: finished); freed if abandoned. */
static struct sim_parked **parked;
static unsigned long long nparked;

void
sim_grid_release(void)
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

	sim_grid_release();
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
	sim_grid_release();
	return ok;
}

/* Every block once, in the given order; false once an error ended it. */
bool
sim_grid_run(bool forward)
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
