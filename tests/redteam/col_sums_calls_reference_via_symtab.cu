// exercise: col_sums
// expect: compile|run|correctness
// message: ref__col_sums_launch|/proc/self|never written|system call
// Reaching the reference by reading the runner's own file: the runner's
// symbols are out of dlsym's reach, but /proc/self/exe is readable and keeps
// its symbol table (ref__col_sums_launch is there, made local or not). The
// load address comes from /proc/self/maps and the launcher's own return
// address. No name on the inspection's list appears: the files are opened
// read-only by a raw openat (the filter lets reads through), read with read(). When the symbol cannot be found the launcher writes nothing, so
// a grader that keeps the runner's symbols to itself fails it at correctness.
#include <elf.h>
#include <fcntl.h>
#include <unistd.h>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>
#include "cudalings/col_sums.h"

// openat(AT_FDCWD, path, O_RDONLY) without naming it
static int
raw_open(const char *path)
{
    long fd;
    __asm__ volatile("syscall" : "=a"(fd) : "0"(257L), "D"((long)AT_FDCWD), "S"(path), "d"((long)O_RDONLY)
                     : "rcx", "r11", "memory");
    return (int)fd;
}

static std::string
slurp(const char *path)
{
    std::string text;
    int fd = raw_open(path);
    if (fd < 0)
        return text;
    char chunk[65536];
    for (ssize_t n; (n = read(fd, chunk, sizeof(chunk))) > 0;)
        text.append(chunk, (size_t)n);
    close(fd);
    return text;
}

static uintptr_t
symbol_in_runner(const char *wanted, const void *inside)
{
    std::string elf = slurp("/proc/self/exe");
    if (elf.size() < sizeof(Elf64_Ehdr))
        return 0;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)elf.data();
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(elf.data() + eh->e_shoff);
    uintptr_t value = 0;
    for (int i = 0; i < eh->e_shnum && !value; i++) {
        if (sh[i].sh_type != SHT_SYMTAB)
            continue;
        const Elf64_Sym *sym = (const Elf64_Sym *)(elf.data() + sh[i].sh_offset);
        const char *names = elf.data() + sh[sh[i].sh_link].sh_offset;
        for (size_t j = 0; j < sh[i].sh_size / sizeof(Elf64_Sym); j++)
            if (!strcmp(names + sym[j].st_name, wanted))
                value = sym[j].st_value;
    }
    if (!value)
        return 0;
    // the runner's lowest mapping of the file holding our caller is its load address
    std::istringstream maps(slurp("/proc/self/maps"));
    std::string line, path;
    uintptr_t base = 0;
    std::vector<std::pair<uintptr_t, std::string>> starts;
    while (std::getline(maps, line)) {
        std::istringstream in(line);
        std::string range, perms, offset, dev, inode, file;
        in >> range >> perms >> offset >> dev >> inode >> file;
        uintptr_t lo = std::stoull(range.substr(0, range.find('-')), nullptr, 16);
        uintptr_t hi = std::stoull(range.substr(range.find('-') + 1), nullptr, 16);
        if ((uintptr_t)inside >= lo && (uintptr_t)inside < hi)
            path = file;
        starts.push_back({ lo, file });
    }
    for (auto &s : starts)
        if (s.second == path && (!base || s.first < base))
            base = s.first;
    if (eh->e_type == ET_EXEC) // not position-independent: the symbol table holds addresses
        return value;
    return base ? base + value : 0;
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    static uintptr_t reference;
    if (!reference)
        reference = symbol_in_runner("ref__col_sums_launch", __builtin_return_address(0));
    if (reference)
        ((col_sums_launch_t *)reference)(a, sums, rows, cols);
}
