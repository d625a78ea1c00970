/*
 * cuda_pipeline.h for the simulator: the cp.async primitives
 * (__pipeline_memcpy_async, __pipeline_commit, __pipeline_wait_prior) and
 * nvcuda::experimental::pipeline.
 *
 * A GPU copies global to shared memory in the background and the wait makes
 * the copy visible to the thread; here the copy happens at once, so commit
 * and wait have nothing to do. The copy is the calling thread's write of
 * shared memory as far as the checks go: another thread that reads it needs
 * a __syncthreads() after the wait, on a GPU as here.
 */
#ifndef CUDASIM_CUDA_PIPELINE_H
#define CUDASIM_CUDA_PIPELINE_H

/* size_and_align: 4, 8 or 16 bytes; the last zfill of them are zeroed instead of read. */
static inline void __pipeline_memcpy_async(void *__restrict__ dst_shared, const void *__restrict__ src_global,
					   size_t size_and_align, size_t zfill = 0)
{
	char *d = (char *)dst_shared;
	const char *s = (const char *)src_global;
	size_t copied = zfill < size_and_align ? size_and_align - zfill : 0;

	if (copied == 16)
		memcpy(d, s, 16);
	else if (copied == 8)
		memcpy(d, s, 8);
	else if (copied == 4)
		memcpy(d, s, 4);
	else
		for (size_t i = 0; i < copied; i++)
			d[i] = s[i];
	for (size_t i = copied; i < size_and_align; i++)
		d[i] = 0;
}

static inline void __pipeline_commit(void) {}
static inline void __pipeline_wait_prior(size_t prior) { (void)prior; }

namespace nvcuda {
namespace experimental {

class pipeline {
public:
	unsigned commit() { return stages_++; }
	void wait(unsigned stage) { (void)stage; }
	template <unsigned Prior> void wait_prior() {}
private:
	unsigned stages_ = 0;
};

template <class T>
static inline void memcpy_async(T &dst, const T &src, pipeline &) { dst = src; }

} /* namespace experimental */
} /* namespace nvcuda */

#endif
