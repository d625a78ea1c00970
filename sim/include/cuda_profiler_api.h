/* cuda_profiler_api.h for the CPU simulator: cudaProfilerStart and cudaProfilerStop are in cudasim.h. */
#include "cudasim.h"
