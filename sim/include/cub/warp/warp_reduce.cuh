/* warp/warp_reduce.cuh for the simulator: CUB's block and warp reductions (cub/cudasim_cub.h says what it has) */
#include <cub/cudasim_cub.h>
