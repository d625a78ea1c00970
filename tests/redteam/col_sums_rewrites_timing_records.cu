// exercise: col_sums
// expect: compile|performance
// message: reference|may not open files
// gpu-only
// A slow kernel (one block of 1024 threads for the whole matrix, about 20x
// the reference's time) that passes by rewriting the runner's own record of
// the timed rounds. The runner is not stripped: /proc/self/exe's symbol table
// names the static arrays of its measure() (the student's, the reference's
// and the copy's times, the ratios, the host's time off the GPU's clock).
// At every call the launcher rewrites the rounds measured so far as 0.95x the
// reference; the median, its interval and the plausibility checks are then
// computed from them. Reading one's own executable and writing one's own
// memory need no system call a filter could refuse, and a container does not
// hide /proc/self/exe.
#include <elf.h>
#include <fcntl.h>
#include <unistd.h>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include "cudalings/col_sums.h"

extern "C" int __open_2(const char *path, int flags);

static std::string
slurp(const char *path)
{
    std::string text;
    int fd = __open_2(path, O_RDONLY);
    if (fd < 0)
        return text;
    char chunk[1 << 16];
    for (ssize_t k; (k = read(fd, chunk, sizeof(chunk))) > 0;)
        text.append(chunk, (size_t)k);
    close(fd);
    return text;
}

// the runner's load address: the lowest mapping of the file that holds `inside` (the launcher's return
// address); not simply the first line of /proc/self/maps, for a GPU's driver reserves address space below
static uintptr_t
runner_base(const std::string &maps, const void *inside)
{
    std::string path;
    uintptr_t base = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t at = 0; at < maps.size();) {
            size_t end = maps.find('\n', at);
            std::string line = maps.substr(at, end == std::string::npos ? std::string::npos : end - at);
            at = end == std::string::npos ? maps.size() : end + 1;
            char *rest;
            uintptr_t lo = strtoull(line.c_str(), &rest, 16), hi = strtoull(rest + 1, nullptr, 16);
            size_t slash = line.find('/');
            std::string file = slash == std::string::npos ? "" : line.substr(slash);
            if (pass == 0 && (uintptr_t)inside >= lo && (uintptr_t)inside < hi)
                path = file;
            if (pass == 1 && !path.empty() && file == path && (!base || lo < base))
                base = lo;
        }
    return base;
}

// the static double array of measure() whose name ends in `tail` ("E7student", say)
static double *
measure_array(const std::string &elf, uintptr_t base, const char *tail)
{
    if (elf.size() < sizeof(Elf64_Ehdr))
        return nullptr;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)elf.data();
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(elf.data() + eh->e_shoff);
    size_t tl = strlen(tail);
    for (int i = 0; i < eh->e_shnum; i++)
        if (sh[i].sh_type == SHT_SYMTAB) {
            const Elf64_Sym *s = (const Elf64_Sym *)(elf.data() + sh[i].sh_offset);
            const char *names = elf.data() + sh[sh[i].sh_link].sh_offset;
            for (size_t j = 0; j < sh[i].sh_size / sizeof(*s); j++) {
                const char *name = names + s[j].st_name;
                size_t nl = strlen(name);
                if (strstr(name, "7measure") && nl > tl && !strcmp(name + nl - tl, tail))
                    return (double *)(base + s[j].st_value);
            }
        }
    return nullptr;
}

__global__ void one_block(const float *a, float *sums, int rows, int cols)
{
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        float t = 0.0f;
        for (int r = 0; r < rows; r++)
            t += a[(size_t)r * cols + c];
        sums[c] = t;
    }
}

static double *student, *reference, *ratio, *wall;
static bool looked;
enum { ROUNDS = 2000 }; // the runner's ROUNDS_MAX

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    if (!looked) {
        looked = true;
        std::string elf = slurp("/proc/self/exe"), maps = slurp("/proc/self/maps");
        uintptr_t base = runner_base(maps, __builtin_return_address(0));
        if (elf.size() >= sizeof(Elf64_Ehdr) && ((const Elf64_Ehdr *)elf.data())->e_type == ET_EXEC)
            base = 0; // not position-independent: the symbol table holds addresses
        student = measure_array(elf, base, "E7student");
        reference = measure_array(elf, base, "E9reference");
        ratio = measure_array(elf, base, "E5ratio");
        wall = measure_array(elf, base, "E4wall");
    }
    if (student && reference && ratio && wall)
        for (int i = 0; i < ROUNDS && reference[i] > 0; i++) {
            student[i] = 0.95 * reference[i];
            ratio[i] = 0.95;
            wall[i] = 0;
        }
    one_block<<<1, 1024>>>(a, sums, rows, cols);
}
