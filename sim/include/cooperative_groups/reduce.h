/*
 * cooperative_groups/reduce.h for the simulator: reduce(group, value, op)
 * over a thread_block_tile<N> (a butterfly of shuffles, as on a GPU) or a
 * coalesced_group (its values in rank order), with the operators below;
 * CUDA 12's reduce_update_async and reduce_store_async, the reduction and
 * then one thread's update or store of it.
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

namespace details {
/* the atomic update an operator stands for, on a cuda::atomic_ref (or anything with fetch_add and co.) */
template <class A, class T, class U> static inline void update(A &a, T v, const plus<U> &) { a.fetch_add(v); }
template <class A, class T, class U> static inline void update(A &a, T v, const less<U> &) { a.fetch_min(v); }
template <class A, class T, class U> static inline void update(A &a, T v, const greater<U> &) { a.fetch_max(v); }
template <class A, class T, class U> static inline void update(A &a, T v, const bit_and<U> &) { a.fetch_and(v); }
template <class A, class T, class U> static inline void update(A &a, T v, const bit_or<U> &) { a.fetch_or(v); }
template <class A, class T, class U> static inline void update(A &a, T v, const bit_xor<U> &) { a.fetch_xor(v); }
template <class T, class U> static inline void store(T *p, U v) { *p = v; }
template <class A, class U> static inline auto store(A &a, U v) -> decltype(a.store(v)) { a.store(v); }
} /* namespace details */

/* CUDA 12's: the group's reduction, then one thread's atomic update of dst (a cuda::atomic_ref) by it */
template <class Group, class A, class T, class Op>
static inline void reduce_update_async(const Group &g, A &dst, const T &value, Op op, CUDASIM_CG_AT)
{
	T total = reduce(g, value, op, file, line);
	if (g.thread_rank() == 0)
		details::update(dst, total, op);
}

/* and its store, into a cuda::atomic_ref or through a pointer */
template <class Group, class A, class T, class Op>
static inline void reduce_store_async(const Group &g, A &dst, const T &value, Op op, CUDASIM_CG_AT)
{
	T total = reduce(g, value, op, file, line);
	if (g.thread_rank() == 0)
		details::store(dst, total);
}

template <class Group, class T, class Op>
static inline void reduce_store_async(const Group &g, T *dst, const T &value, Op op, CUDASIM_CG_AT)
{
	T total = reduce(g, value, op, file, line);
	if (g.thread_rank() == 0)
		*dst = total;
}

} /* namespace cooperative_groups */

#endif
