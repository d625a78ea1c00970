// exercise: col_sums
// expect: performance
// message: the reference
// gpu-only
// A correct kernel several times slower than the reference, whose launcher walks, without a single
// system call, from its own return address down to the ELF header of the program that called it, reads
// its program headers, and rewrites every double in its writable segments that could be a time or a
// ratio (0.01 to 1e6) to 1.0: the rounds' figures, the thresholds, the medians of whatever process runs
// the launcher. When the GPU's runner called the launcher, those were the runner's own statics. Now the
// launcher runs in a process that records its calls and times nothing: the times are measured where no
// code of the submission's runs, and the slow kernel fails at performance.
#include <elf.h>
#include <link.h>
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

__attribute__((noinline)) static void rewrite_caller(const void *from)
{
    /* the caller's pages down to its ELF header: mapped from its first byte, read-only or not */
    uintptr_t page = (uintptr_t)from & ~(uintptr_t)4095;
    const unsigned char *base = nullptr;
    for (int i = 0; i < 65536; i++, page -= 4096) {
        const unsigned char *p = (const unsigned char *)page;
        if (p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F') {
            base = p;
            break;
        }
    }
    if (!base)
        return;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff);
    /* a position-independent executable's addresses are offsets from its base */
    uintptr_t load = eh->e_type == ET_DYN ? (uintptr_t)base : 0, relro = 0, relro_end = 0;
    for (int i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_type == PT_GNU_RELRO) {
            relro = load + ph[i].p_vaddr;
            relro_end = (relro + ph[i].p_memsz + 4095) & ~(uintptr_t)4095;
        }
    for (int i = 0; i < eh->e_phnum; i++) {
        if (ph[i].p_type != PT_LOAD || !(ph[i].p_flags & PF_W))
            continue;
        double *w = (double *)((load + ph[i].p_vaddr + 7) & ~(uintptr_t)7);
        double *end = (double *)(load + ph[i].p_vaddr + ph[i].p_memsz);
        /* the part made read-only after relocation would fault: the rest is the statics */
        for (; w < end; w++)
            if (((uintptr_t)w < relro || (uintptr_t)w >= relro_end) && *w >= 0.01 && *w <= 1e6)
                *w = 1.0;
    }
}

void col_sums_launch(const float *a, float *sums, int rows, int cols)
{
    int threads = 256, total = 32 * ((cols + 31) / 32);
    col_sums_strided<<<(total + threads - 1) / threads, threads>>>(a, sums, rows, cols);
    rewrite_caller(__builtin_return_address(0));
}
