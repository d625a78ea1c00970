// exercise: matrix_add
// expect: compile
// message: calls 'cudaMemcpy'
#include <cuda_runtime.h>
#include "cudalings/matrix_add.h"
void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    cudaMemcpy(out, a, sizeof(float) * rows * cols, cudaMemcpyDeviceToDevice);
}
