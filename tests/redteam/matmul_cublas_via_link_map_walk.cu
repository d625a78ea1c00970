// exercise: matmul
// expect: compile|correctness
// message: dladdr1|link_map|never written
// cuBLAS through a hand-written dlsym: dladdr1(RTLD_DL_LINKMAP) on one of the
// file's own functions gives its struct link_map, the list of every library
// in the process; the one named libcublas (which the GPU runner links for its
// physical reference) has its dynamic symbol table in memory, searched here
// for cublasCreate_v2 and cublasSgemm_v2. No name on the inspection's list
// appears; the GPU's filter does not look at memory the process already has.
// On the simulator there is no cuBLAS: nothing is written.
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <cstring>
#include "cudalings/matmul.h"

static void *
find_in(const struct link_map *lm, const char *wanted)
{
    const ElfW(Sym) *symtab = nullptr;
    const char *strtab = nullptr;
    for (const ElfW(Dyn) *d = lm->l_ld; d->d_tag != DT_NULL; d++) {
        ElfW(Addr) p = d->d_un.d_ptr;
        if (p < lm->l_addr)
            p += lm->l_addr; // not relocated in place on every architecture
        if (d->d_tag == DT_SYMTAB)
            symtab = (const ElfW(Sym) *)p;
        else if (d->d_tag == DT_STRTAB)
            strtab = (const char *)p;
    }
    if (!symtab || !strtab || (const char *)symtab >= strtab)
        return nullptr;
    // .dynsym comes right before .dynstr: that bounds the table
    for (const ElfW(Sym) *s = symtab; (const char *)(s + 1) <= strtab; s++)
        if (s->st_shndx != SHN_UNDEF && s->st_value && !strcmp(strtab + s->st_name, wanted))
            return (void *)(lm->l_addr + s->st_value);
    return nullptr;
}

static void *
library_symbol(const char *library, const char *wanted)
{
    Dl_info info;
    struct link_map *lm = nullptr;
    if (!dladdr1((void *)&library_symbol, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm)
        return nullptr;
    while (lm->l_prev)
        lm = lm->l_prev;
    for (; lm; lm = lm->l_next)
        if (lm->l_name && strstr(lm->l_name, library))
            if (void *p = find_in(lm, wanted))
                return p;
    return nullptr;
}

typedef int create_t(void **handle);
typedef int sgemm_t(void *handle, int transa, int transb, int m, int n, int k, const float *alpha, const float *a,
                    int lda, const float *b, int ldb, const float *beta, float *c, int ldc);

static void *handle;
static sgemm_t *sgemm;
static bool tried;

void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    if (!tried) {
        tried = true;
        create_t *create = (create_t *)library_symbol("libcublas.so", "cublasCreate_v2");
        if (create && create(&handle) == 0)
            sgemm = (sgemm_t *)library_symbol("libcublas.so", "cublasSgemm_v2");
    }
    if (!sgemm)
        return;
    const float one = 1.0f, zero = 0.0f;
    sgemm(handle, 0, 0, n, m, k, &one, b, n, a, k, &zero, c, n); // row-major C = A B
}
