// exercise: col_sums
// expect: run
// message: the system call 'openat' to write
// Creates a file from a constructor through a C library function that no
// symbol check names (mkstemp): the runner's system-call filter is in place
// before the submission's first instruction, and names the call and the path.
#include <cstdlib>
#include "cudalings/col_sums.h"

__attribute__((constructor)) static void leave_a_file(void)
{
    static char path[] = "build/left-by-a-submission-XXXXXX";
    (void)mkstemp(path);
}

__global__ void sums(const float *a, float *s, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < cols) {
        float t = 0;
        for (int r = 0; r < rows; r++)
            t += a[(size_t)r * cols + c];
        s[c] = t;
    }
}

void col_sums_launch(const float *a, float *s, int rows, int cols)
{
    sums<<<(cols + 255) / 256, 256>>>(a, s, rows, cols);
}
