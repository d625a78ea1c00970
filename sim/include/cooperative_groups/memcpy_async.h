/*
 * cooperative_groups/memcpy_async.h for the simulator: memcpy_async(group,
 * dst, src, bytes) and memcpy_async(group, dst, dst_count, src, src_count),
 * then wait(group) or wait_prior<N>(group).
 *
 * On a GPU the group's threads start the copy together and it lands later;
 * here each thread copies its share at once (rank r: 4-byte words r,
 * r + size, ...), so a warp's share is one coalesced request, and the wait
 * is the group's sync: a thread reading the copy before the wait reads
 * another thread's share unordered, which the simulator reports as a race.
 */
#ifndef CUDASIM_CG_MEMCPY_ASYNC_H
#define CUDASIM_CG_MEMCPY_ASYNC_H

#include <cooperative_groups.h>

namespace cuda {
/* A byte count with the alignment the caller promises (<cuda/barrier>'s, used with memcpy_async). */
template <size_t Alignment>
struct aligned_size_t {
	size_t value;
	constexpr aligned_size_t(size_t n) : value(n) {}
	constexpr operator size_t() const { return value; }
};
} /* namespace cuda */

namespace cooperative_groups {

namespace details {

template <class Group>
static inline void copy_share(const Group &g, void *dst, const void *src, size_t bytes)
{
	size_t rank = (size_t)g.thread_rank(), n = (size_t)g.size();
	char *d = (char *)dst;
	const char *s = (const char *)src;

	if ((((uintptr_t)d | (uintptr_t)s | bytes) & 3) == 0) {
		for (size_t i = 4 * rank; i < bytes; i += 4 * n)
			memcpy(d + i, s + i, 4);
	} else {
		for (size_t i = rank; i < bytes; i += n)
			d[i] = s[i];
	}
}

} /* namespace details */

template <class Group, class T, class Size>
static inline void memcpy_async(const Group &g, T *dst, const T *src, const Size &bytes)
{
	details::copy_share(g, (void *)dst, (const void *)src, (size_t)bytes);
}

template <class Group, class T, class DstCount, class SrcCount>
static inline void memcpy_async(const Group &g, T *dst, const DstCount &dst_count, const T *src,
				const SrcCount &src_count)
{
	size_t n = (size_t)dst_count < (size_t)src_count ? (size_t)dst_count : (size_t)src_count;

	details::copy_share(g, (void *)dst, (const void *)src, n * sizeof(T));
}

template <class Group>
static inline void wait(const Group &g, CUDASIM_CG_AT) { g.sync(file, line); }

template <unsigned Stage, class Group>
static inline void wait_prior(const Group &g, CUDASIM_CG_AT) { g.sync(file, line); }

} /* namespace cooperative_groups */

#endif
