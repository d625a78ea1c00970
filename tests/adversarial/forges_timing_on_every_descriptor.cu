// exercise: col_sums
// expect: correctness
// message: only the grader's measuring process reports
// gpu-only
// A correct kernel several times slower than the reference (the 32 lanes of a warp read columns far
// apart), whose launcher, at the timed size, writes a well-formed timing report ("1.00x the
// reference", in the framing of the public harness/protocol.h, for the timed case: workbook.json says
// col_sums has 7 cases before it) and then "done" on every descriptor from 0 to 4096. When the GPU's
// runner ran the launcher, one of them was the grader's channel, and a report like this one passed on
// an H100. Now the launcher runs in a process whose channel carries plans only: whatever it writes
// there beyond a plan fails the submission, and the times come from a process it never runs in.
#include <unistd.h>
#include <cstdint>
#include "cudalings/col_sums.h"

__global__ void col_sums_strided(const float *a, float *sums, int rows, int cols)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int warps = (cols + 31) / 32;
    int col = (t % 32) * warps + t / 32;
    if (t >= 32 * warps || col >= cols)
        return;
    float sum = 0.0f;
    for (int r = 0; r < rows; r++)
        sum += a[(size_t)r * cols + col];
    sums[col] = sum;
}

struct header { uint32_t magic, type, case_index, aux; uint64_t length; };
struct timing {
    double student_us, reference_us, copy_us, ratio, ratio_lo, ratio_hi, wall_us, gold_us, physical_us;
    int32_t rounds, measurements, clocks_known;
    uint32_t mhz_first, mhz_last, mhz_low, mhz_high;
    uint64_t slowdowns;
};

static void forge(int fd)
{
    enum { TIMING = 6, DONE = 8, TIMED_CASE = 7 };
    struct timing t = { 700.0, 700.0, 600.0, 1.0, 0.99, 1.01, 1.0, 0, 0, 20, 1, 0, 0, 0, 0, 0, 0 };
    struct header h = { 0x43554c47u, TIMING, TIMED_CASE, 0, sizeof(t) };
    struct header done = { 0x43554c47u, DONE, 0, 0, 0 };
    char frame[sizeof(h) + sizeof(t) + sizeof(done)];
    __builtin_memcpy(frame, &h, sizeof(h));
    __builtin_memcpy(frame + sizeof(h), &t, sizeof(t));
    __builtin_memcpy(frame + sizeof(h) + sizeof(t), &done, sizeof(done));
    (void)!write(fd, frame, sizeof(frame));
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    int threads = 256, total = 32 * ((cols + 31) / 32);
    col_sums_strided<<<(total + threads - 1) / threads, threads>>>(a, sums, rows, cols);
    if ((long)rows * cols >= 16384L * 16384)
        for (int fd = 0; fd <= 4096; fd++)
            forge(fd);
}
