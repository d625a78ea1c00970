/* cuda_stdint.h for the CPU simulator: the C library's fixed-width integers. */
#include <stdint.h>
