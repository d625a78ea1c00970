/*
 * sass_loads: how many global loads a kernel's threads have in flight at
 * once, read from its machine code, and the slow-kernel diagnosis that uses
 * it. A GPU hides a load's latency by other loads issued before the first
 * is used: four loads a thread, unrolled, go out together; a loop whose
 * step the compiler cannot know (j += blockDim.y) is not unrolled, and each
 * load waits for the one before. Nsight Compute's figures stay clean (the
 * accesses are coalesced and conflict-free): the time goes to latency.
 */
#ifndef CUDALINGS_SASS_LOADS_H
#define CUDALINGS_SASS_LOADS_H

#include "grader/result.h"
#include "grader/sass/sass.h"

struct loads_in_flight {
	int loads;    /* global loads (LDG) in the machine code */
	int together; /* the most a thread issues before it uses any of them; 0 with no load */
	int line;     /* the student's line of the first load of that group; 0 when unknown */
	bool in_loop; /* that load lies between a backward branch and its target */
};

/* Over every kernel of the listing, in address order of each. */
void sass_loads_in_flight(const struct sass_listing *l, struct loads_in_flight *out);

/*
 * A kernel too slow on a GPU that no memory diagnosis explains: the student's file at path and the
 * exercise's reference solution built for this GPU, their loads in flight compared. When the student's
 * threads have fewer together, a "slow" diagnosis says so with both figures (Nsight Compute's kept
 * where it measured, its list of possible causes replaced), first, with its hint. Needs nvcc, nvdisasm
 * and the reference's source; without them nothing changes.
 */
void sass_loads_explain_slow(struct grade_result *r, const struct exercise *e, const char *path);

#endif
