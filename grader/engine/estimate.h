/*
 * estimate: how fast a kernel graded on the simulator would be on a GPU,
 * from the simulator's counts — an estimate for a student without one,
 * never a verdict (the budgets keep the simulator's pass or fail).
 *
 * The simulator measures each launch of the student's launcher and of the
 * reference solution's on the measured case (the timed case made small),
 * and takes the shapes both launchers pick at the timed size without
 * running them. The counts are scaled to the timed size and turned into a
 * time on a named GPU by a roofline-like model: the slowest of DRAM, L2,
 * and the waves of blocks the SMs hold at once, each wave as long as its
 * threads' rounds of memory latency plus its L1 and shared-memory work.
 * bench/estimate.md says how its few constants were fitted and how far the
 * estimate lies from an H100's measurements on files it never saw.
 */
#ifndef CUDALINGS_ESTIMATE_H
#define CUDALINGS_ESTIMATE_H

#include <stdbool.h>
#include "grader/result.h"

struct exercise;

/*
 * The estimate from the measured case's launches (by protocol aux: 0 the
 * student's, 1 the reference's, 2 and 3 their shapes at the timed size);
 * e->timed and the measured case's sizes scale them. Fills *out; out->made
 * is false when a side has no counts (a launcher that launched nothing).
 */
void estimate_make(const struct exercise *e, const int *measured_dims,
		   const struct proto_launch launches[4][PROTO_MAX_LAUNCHES], const int nlaunches[4],
		   struct estimate *out);

#endif
