// exercise: transpose
// expect: correctness
// message: a report that the GPU could not be opened
// sim-only
// forges_a_missing_gpu.cu from a constructor, before any case: it writes the runner's own report that
// its system-call filter could not be installed, then "done", and ends the process as the runner does
// after that report. The simulator's runner said HELLO before it installed its filter, so the two
// could not be told apart and a wrong file got an environment's error (exit 3). The simulator's
// runner now says HELLO once its filter is in: a machine's report after it is the submission's.
#include <unistd.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include "cudalings/transpose.h"

__global__ void nothing(const float *in, float *out, int rows, int cols)
{
}

struct header { uint32_t magic, type, case_index, aux; uint64_t length; };

__attribute__((constructor)) static void report_a_broken_machine(void)
{
    static const char text[] = "the system-call filter could not be installed";
    struct { header h; char said[sizeof text - 1]; } m;
    m.h.magic = 0x43554c47u;
    m.h.type = 5;  /* MSG_ERROR */
    m.h.case_index = 0;
    m.h.aux = 3;   /* PROTO_STAGE_DEVICE */
    m.h.length = sizeof text - 1;
    memcpy(m.said, text, sizeof text - 1);
    header done = { 0x43554c47u, 8 /* MSG_DONE */, 0, 0, 0 };
    for (int fd = 3; fd < 1024; fd++) {
        struct stat st;
        if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) && (write(fd, &m, sizeof m) < 0 || write(fd, &done, sizeof done) < 0)) {
        }
    }
    _exit(1);
}

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    nothing<<<1, 1>>>(in, out, rows, cols);
}
