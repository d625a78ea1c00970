// exercise: sum_reduction
// expect: compile
// message: library|libraries|cannot run
// gpu-only
// The whole exercise done by a library: cub::DeviceReduce::Sum (header-only,
// shipped with the toolkit), its temporary storage from cudaMalloc. The
// exercise asks for the student's own reduction, as cuBLAS is refused for
// the matrix products; a library call that does it all must be refused the
// same way, by name (cub::DeviceReduce, thrust::reduce).
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>
#include "cudalings/sum_reduction.h"

void sum_reduction_launch(const float *in, float *sum, int n)
{
    static void *temp;
    static size_t temp_bytes;
    size_t need = 0;
    cub::DeviceReduce::Sum(nullptr, need, in, sum, n);
    if (need > temp_bytes) {
        cudaFree(temp);
        cudaMalloc(&temp, need);
        temp_bytes = need;
    }
    cub::DeviceReduce::Sum(temp, temp_bytes, in, sum, n);
}
