/*
 * matmul's physical reference: cuBLAS SGEMM on the same buffers, timed in
 * the same rounds as the student's kernel. Linked into the GPU runner only;
 * the runner exports none of it, and the inspection refuses cublas* calls.
 */
#include <cublas_v2.h>

#include "harness/check.h"

extern "C" int
cudalings_physical_launch(const struct check_case *c, void *const *b)
{
	static cublasHandle_t handle;
	if (!handle && cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
		return -1;
	/* FP32 as the exercise computes it: no TF32 tensor cores */
	cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH);
	int m = c->dims[0], k = c->dims[1], n = c->dims[2];
	const float one = 1, zero = 0;
	/* row-major C = A B is column-major Cᵀ = Bᵀ Aᵀ */
	cublasStatus_t s = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, (const float *)b[1], n,
				       (const float *)b[0], k, &zero, (float *)b[2], n);
	return s == CUBLAS_STATUS_SUCCESS ? 0 : -1;
}
