/* block/block_load.cuh for the simulator: CUB's block loads and stores and warp utilities (cub/cudasim_cub_load.h says what it has) */
#include <cub/cudasim_cub_load.h>
