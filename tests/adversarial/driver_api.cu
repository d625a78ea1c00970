// exercise: matmul
// expect: compile
// message: the CUDA driver API is the harness's
// Loads code through the driver API (a cubin taken from elsewhere, say) and
// launches it off the runtime: refused before linking.
#include "cudalings/matmul.h"
extern "C" int cuModuleLoadData(void **module, const void *image);
extern "C" int cuLaunchKernel(void *f, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                              void *stream, void **params, void **extra);
void matmul_launch(const float *a, const float *b, float *c, int m, int k, int n)
{
    void *module = 0;
    cuModuleLoadData(&module, "");
    cuLaunchKernel(module, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0);
}
