// exercise: matmul_naive
// expect: compile|correctness
// message: dlsym|never written
// cuBLAS without naming it: the GPU runner links libcublas for its own
// physical reference, so dlsym(RTLD_DEFAULT, "cublasSgemm_v2") finds it, and
// dlsym itself is referenced as "dlsym@GLIBC_2.34" (`.symver`), which the
// inspection's exact-name rule does not match. SGEMM in FP32 is exact enough
// and four times faster than the reference. On the simulator the lookup
// finds nothing and the launcher writes nothing.
#include <dlfcn.h>
#include "cudalings/matmul_naive.h"

extern "C" void *lookup(void *handle, const char *name);
__asm__(".symver lookup, dlsym@GLIBC_2.34");

typedef int create_t(void **handle);
typedef int sgemm_t(void *handle, int transa, int transb, int m, int n, int k, const float *alpha, const float *a,
                    int lda, const float *b, int ldb, const float *beta, float *c, int ldc);

static void *handle;
static sgemm_t *sgemm;
static bool tried;

void matmul_naive_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    if (!tried) {
        tried = true;
        create_t *create = (create_t *)lookup(RTLD_DEFAULT, "cublasCreate_v2");
        if (create && create(&handle) == 0)
            sgemm = (sgemm_t *)lookup(RTLD_DEFAULT, "cublasSgemm_v2");
    }
    if (!sgemm)
        return;
    // row-major C = A B is column-major C^T = B^T A^T
    const float one = 1.0f, zero = 0.0f;
    sgemm(handle, 0, 0, n, m, k, &one, b, n, a, k, &zero, c, n);
}
