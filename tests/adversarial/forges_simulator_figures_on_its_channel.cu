// exercise: transpose
// expect: correctness
// message: the simulator's figures of a case that the harness did not
// sim-only
// The unpadded 32 x 32 tile (a 32-way bank conflict), whose launcher, called for the measured case
// (128 x 1056, the seventh), writes to the one pipe among its descriptors a report of the simulator's
// figures for that case in the framing of the public harness/protocol.h: a billion shared-memory
// requests without a conflict. On the simulator the launcher runs in the runner's process, and the
// grader added every report's figures up: the conflicts per request fell under the budget and the
// kernel passed. The runner reports a case's figures once, after its launch, while in it: a second
// report, or one for another case, fails the case as forged.
#include <unistd.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include "cudalings/transpose.h"

__global__ void transpose_conflicts(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][32];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

struct header { uint32_t magic, type, case_index, aux; uint64_t length; };
struct counts {
    uint64_t threads, global_loads, global_stores;
    uint64_t load_requests, load_sectors, store_requests, store_sectors;
    uint64_t shared_requests, shared_wavefronts;
    uint64_t global_excess, shared_excess;
    char global_where[256], shared_where[256];
    uint64_t load_ideal, store_ideal, shared_ideal;
    uint64_t load_bytes, outputs;
};

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    if (rows == 128 && cols == 1056) {
        struct { header h; counts n; } m;
        memset(&m, 0, sizeof m);
        m.h.magic = 0x43554c47u;
        m.h.type = 13; /* MSG_COUNTS */
        m.h.case_index = 6;
        m.h.length = sizeof(counts);
        m.n.threads = m.n.global_loads = m.n.global_stores = 1ull << 30;
        m.n.load_requests = m.n.store_requests = 1ull << 25;
        m.n.load_sectors = m.n.store_sectors = m.n.load_ideal = m.n.store_ideal = 1ull << 27;
        m.n.shared_requests = m.n.shared_wavefronts = m.n.shared_ideal = 1ull << 30;
        m.n.load_bytes = 1ull << 32;
        for (int fd = 3; fd < 1024; fd++) {
            struct stat st;
            if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) && write(fd, &m, sizeof m) < 0) {
            }
        }
    }
    transpose_conflicts<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 32)>>>(in, out, rows, cols);
}
