/*
 * cooperative_groups/scan.h for the simulator: inclusive_scan and
 * exclusive_scan over a thread_block_tile<N> (shuffles up, log2 N steps),
 * with plus<T> unless another operator is given.
 */
#ifndef CUDASIM_CG_SCAN_H
#define CUDASIM_CG_SCAN_H

#include <cooperative_groups/reduce.h>

namespace cooperative_groups {

template <class T, class Op, unsigned N, class P>
static inline T inclusive_scan(const thread_block_tile<N, P> &g, T value, Op op, CUDASIM_CG_AT)
{
	unsigned rank = (unsigned)g.thread_rank();
	for (unsigned d = 1; d < N; d *= 2) {
		T left = g.shfl_up(value, d, file, line);
		if (rank >= d)
			value = op(left, value);
	}
	return value;
}

template <class T, unsigned N, class P>
static inline T inclusive_scan(const thread_block_tile<N, P> &g, T value, CUDASIM_CG_AT)
{
	return inclusive_scan(g, value, plus<T>(), file, line);
}

/* Rank 0 gets T(), as the sum of nothing. */
template <class T, class Op, unsigned N, class P>
static inline T exclusive_scan(const thread_block_tile<N, P> &g, T value, Op op, CUDASIM_CG_AT)
{
	T inclusive = inclusive_scan(g, value, op, file, line);
	T left = g.shfl_up(inclusive, 1, file, line);
	return g.thread_rank() == 0 ? T() : left;
}

template <class T, unsigned N, class P>
static inline T exclusive_scan(const thread_block_tile<N, P> &g, T value, CUDASIM_CG_AT)
{
	return exclusive_scan(g, value, plus<T>(), file, line);
}

} /* namespace cooperative_groups */

#endif
