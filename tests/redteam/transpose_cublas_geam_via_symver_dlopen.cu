// exercise: transpose
// expect: compile|run|correctness
// message: dlopen|mmap|never written
// The assessment done by a library: cuBLAS's geam transposes a matrix at
// about the speed of a copy. cuBLAS is refused by name, so the file loads it
// itself: dlopen and dlsym are referenced as "dlopen@GLIBC_2.34" and
// "dlsym@GLIBC_2.34" (`.symver`), which the exact-name rules do not match,
// and the library's functions are found by strings. On a GPU nothing else
// stops it (reading files and mapping code are allowed there); on the
// simulator there is no cuBLAS, and the launcher then writes nothing.
#include <dlfcn.h>
#include "cudalings/transpose.h"

extern "C" void *load(const char *file, int mode);
extern "C" void *find(void *handle, const char *name);
__asm__(".symver load, dlopen@GLIBC_2.34");
__asm__(".symver find, dlsym@GLIBC_2.34");

typedef int create_t(void **handle);
typedef int geam_t(void *handle, int transa, int transb, int m, int n, const float *alpha, const float *a, int lda,
                   const float *beta, const float *b, int ldb, float *c, int ldc);

static void *handle;
static geam_t *geam;
static bool tried;

void transpose_launch(const float *in, float *out, int rows, int cols)
{
    if (!tried) {
        tried = true;
        const char *names[] = { "libcublas.so.13", "libcublas.so.12", "libcublas.so",
                                "/usr/local/cuda/lib64/libcublas.so" };
        void *lib = nullptr;
        for (const char *name : names)
            if ((lib = load(name, RTLD_NOW)))
                break;
        create_t *create = lib ? (create_t *)find(lib, "cublasCreate_v2") : nullptr;
        if (create && create(&handle) == 0)
            geam = (geam_t *)find(lib, "cublasSgeam");
    }
    if (!geam)
        return;
    // row-major in (rows x cols) is column-major in^T (cols x rows, ld cols); out = in^T row-major is
    // column-major in (rows x cols, ld rows): C = op(A) with op = transpose
    const float one = 1.0f, zero = 0.0f;
    geam(handle, 1, 0, rows, cols, &one, in, cols, &zero, out, rows, out, rows);
}
