/* common_functions.h for the CPU simulator: everything is in cudasim.h. */
#include "cudasim.h"
