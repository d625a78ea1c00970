// exercise: transpose
// expect: correctness
// message: a report that the GPU could not be opened
// sim-only
// A kernel that writes nothing, whose launcher writes to the one pipe among its descriptors the
// runner's own report that the GPU could not be opened (an error of stage "device", in the framing of
// the public harness/protocol.h). On the simulator the launcher runs in the runner's process, and the
// grader took the report for the machine's: an environment's error (exit 3) instead of the fail the
// file has earned. The runner says that before it loads the submission, never once a case began: the
// case fails as forged.
#include <unistd.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include "cudalings/transpose.h"

__global__ void nothing(const float *in, float *out, int rows, int cols)
{
}

struct header { uint32_t magic, type, case_index, aux; uint64_t length; };

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    static const char text[] = "no GPU could be opened: all CUDA-capable devices are busy";
    struct { header h; char said[sizeof text - 1]; } m;
    m.h.magic = 0x43554c47u;
    m.h.type = 5;  /* MSG_ERROR */
    m.h.case_index = 0;
    m.h.aux = 3;   /* PROTO_STAGE_DEVICE */
    m.h.length = sizeof text - 1;
    memcpy(m.said, text, sizeof text - 1);
    for (int fd = 3; fd < 1024; fd++) {
        struct stat st;
        if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) && write(fd, &m, sizeof m) < 0) {
        }
    }
    nothing<<<1, 1>>>(in, out, rows, cols);
}
