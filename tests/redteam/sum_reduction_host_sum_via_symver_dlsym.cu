// exercise: sum_reduction
// expect: compile
// message: dlsym
// The host does the work, with calls the inspection refuses by name, reached
// under another spelling: `.symver` makes the reference to dlsym read
// "dlsym@GLIBC_2.34" in the object's symbol table, which no exact-name rule
// matches, and dlsym then hands over cudaMemcpy. The launcher copies the
// input to the host, adds it there in double precision and copies the sum
// back: right on both backends (slow on a GPU), and the GPU does nothing.
#include <dlfcn.h>
#include <cuda_runtime.h>
#include <vector>
#include "cudalings/sum_reduction.h"

extern "C" void *lookup(void *handle, const char *name);
__asm__(".symver lookup, dlsym@GLIBC_2.34");

typedef cudaError_t copy_t(void *, const void *, size_t, cudaMemcpyKind);

void sum_reduction_launch(const float *in, float *sum, int n)
{
    copy_t *copy = (copy_t *)lookup(RTLD_DEFAULT, "cudaMemcpy");
    if (!copy)
        return;
    std::vector<float> host(n);
    copy(host.data(), in, sizeof(float) * n, cudaMemcpyDeviceToHost);
    double total = 0;
    for (int i = 0; i < n; i++)
        total += host[i];
    float result = (float)total;
    copy(sum, &result, sizeof(float), cudaMemcpyHostToDevice);
}
