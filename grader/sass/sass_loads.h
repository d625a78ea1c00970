/*
 * sass_loads: how many global loads a kernel's threads have in flight at
 * once, read from its machine code, and a file's figure for the slow-kernel
 * diagnosis. A GPU hides a load's latency by other loads issued before the
 * first is used: four loads a thread, unrolled, go out together; a loop whose
 * step the compiler cannot know (j += blockDim.y) is not unrolled, and each
 * load waits for the one before. Nsight Compute's figures stay clean (the
 * accesses are coalesced and conflict-free): the time goes to latency, as
 * the engine's diagnosis says (grader/engine/diagnose_loads.c).
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

/* The loads in flight of the file at path, built for this GPU (the student's file or the reference solution);
   false when it cannot be told: no nvcc, nvdisasm or source. */
bool sass_loads_measure(const struct exercise *e, const char *path, struct loads_in_flight *out);

#endif
