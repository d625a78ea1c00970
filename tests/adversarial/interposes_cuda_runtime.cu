// exercise: col_sums
// expect: compile
// message: defines 'cudaDeviceSynchronize'
// Replacing a CUDA runtime call so that errors and waiting disappear.
#include <cuda_runtime.h>
#include "cudalings/col_sums.h"
extern "C" cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
void col_sums_launch(const float *a, float *sums, int rows, int cols) {}
