/* cuda_device_runtime_api.h for the CPU simulator: everything is in cudasim.h. */
#include "cudasim.h"
