/* cub.cuh for the simulator: CUB's block and warp reductions, block loads and stores, warp utilities
   (cub/cudasim_cub.h and cub/cudasim_cub_load.h say what they have) */
#include <cub/cudasim_cub.h>
#include <cub/cudasim_cub_load.h>
