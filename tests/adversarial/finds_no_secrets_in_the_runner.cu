// exercise: col_sums
// expect: pass
// message: cases correct
// sim-only
// A sensor for what a launcher's host code, which on the simulator runs in the runner's process, could
// read there: the grader's secret seed on the command line (from which every input of every case and
// round can be drawn again) and the harness's host copy of the case's inputs in the heap (from which the
// host could compute the answer and pass it in through cudaMemcpyToSymbol, with a copy kernel whose
// figures are perfect). Where it finds either it leaves the output unwritten; passing means neither was
// there. The seed now lives in a page of its own that only the harness opens, its text wiped, and the
// inputs' host copy is wiped and freed before the launcher runs.
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cuda_runtime.h>
#include "cudalings/col_sums.h"

__global__ void sums(const float *a, float *s, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    float t = 0.0f;
    for (int r = 0; r < rows; r++)
        t += a[(size_t)r * cols + c];
    s[c] = t;
}

/* "--seed" and a number after it, in the strings at the top of the stack: argv's, below the environment's */
static bool seed_on_the_stack(void)
{
    volatile char here = 0;
    const char *p = (const char *)&here, *env = getenv("PATH");
    if (!env)
        env = getenv("HOME");
    for (; env && p + 8 < env; p++)
        if (memcmp(p, "--seed", 7) == 0)
            return p[7] >= '0' && p[7] <= '9';
    return false;
}

/* a heap chunk of the input's size whose floats all lie in the inputs' range [-1, 1], most of them not
   tiny (small integers read as floats are) */
static bool inputs_in_the_heap(size_t bytes)
{
    size_t want = (bytes + 8 + 15) & ~(size_t)15;
    if (want < 32 || bytes >= (64u << 10))
        return false; /* too small to tell apart, or mapped apart from the heap */
    char *top = (char *)sbrk(0), *base = top - mallinfo2().arena;
    for (char *p = top - 16; p >= base + 8; p -= 8) {
        if ((*(size_t *)p & ~(size_t)7) != want || p + 8 + bytes > top)
            continue;
        const float *v = (const float *)(p + 8);
        bool in_range = true;
        size_t drawn = 0;
        for (size_t i = 0; i < bytes / 4 && in_range; i++) {
            in_range = v[i] >= -1.0f && v[i] <= 1.0f;
            drawn += v[i] > 1e-3f || v[i] < -1e-3f;
        }
        if (in_range && drawn > bytes / 8)
            return true;
    }
    return false;
}

void col_sums_launch(const float *a, float *s, int rows, int cols)
{
    /* with one row the output has the input's size, and the harness keeps its copy of that: no sign */
    if (seed_on_the_stack() || (rows > 1 && inputs_in_the_heap((size_t)rows * cols * sizeof(float))))
        return;
    sums<<<(cols + 255) / 256, 256>>>(a, s, rows, cols);
}
