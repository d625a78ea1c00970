/*
 * cooperative_groups/reduce.h for the simulator: reduce(group, value, op)
 * over a thread_block_tile<N> (a butterfly of shuffles, as on a GPU) or a
 * coalesced_group (its values in rank order), with the operators below.
 */
#ifndef CUDASIM_CG_REDUCE_H
#define CUDASIM_CG_REDUCE_H

#include <cooperative_groups.h>

namespace cooperative_groups {

template <class T> struct plus { T operator()(const T &a, const T &b) const { return a + b; } };
template <class T> struct less { T operator()(const T &a, const T &b) const { return b < a ? b : a; } };
template <class T> struct greater { T operator()(const T &a, const T &b) const { return a < b ? b : a; } };
template <class T> struct bit_and { T operator()(const T &a, const T &b) const { return a & b; } };
template <class T> struct bit_or { T operator()(const T &a, const T &b) const { return a | b; } };
template <class T> struct bit_xor { T operator()(const T &a, const T &b) const { return a ^ b; } };

template <class T, class Op, unsigned N, class P>
static inline T reduce(const thread_block_tile<N, P> &g, T value, Op op, CUDASIM_CG_AT)
{
	for (unsigned lanes = N / 2; lanes > 0; lanes /= 2)
		value = op(value, g.shfl_xor(value, (int)lanes, file, line));
	return value;
}

template <class T, class Op>
static inline T reduce(const coalesced_group &g, T value, Op op, CUDASIM_CG_AT)
{
	T total = g.shfl(value, 0, file, line);
	for (unsigned rank = 1; rank < g.size(); rank++)
		total = op(total, g.shfl(value, rank, file, line));
	return total;
}

} /* namespace cooperative_groups */

#endif
