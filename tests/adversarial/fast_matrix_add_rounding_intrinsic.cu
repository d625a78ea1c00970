// exercise: matrix_add
// expect: error|compile
// message: cannot compile this file, which nvcc accepts|__fadd_rz
// Legitimate and fast: the sum rounded toward zero with __fadd_rz (within the exercise's tolerance of
// the reference's), an intrinsic the simulator does not have. With nvcc's front end at hand, the
// simulator's failed compile of a file nvcc accepts is no student's mistake: it says it cannot compile
// it and asks for a GPU (exit 3), its compiler's first lines beside. Without nvcc it cannot tell, and the
// compile fails. (Should the simulator gain __fadd_rz, this file passes: pick another.)
#include "cudalings/matrix_add.h"

__global__ void add(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ out, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = __fadd_rz(a[i], b[i]);
}

void matrix_add_launch(const float *a, const float *b, float *out, int rows, int cols)
{
    size_t n = (size_t)rows * cols, blocks = (n + 255) / 256;
    add<<<(unsigned)(blocks > 8192 ? 8192 : blocks), 256>>>(a, b, out, n);
}
