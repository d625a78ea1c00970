/*
 * CUB's block and warp reductions for the simulator (cub/cub.cuh,
 * cub/block/block_reduce.cuh and cub/warp/warp_reduce.cuh include it): the
 * building blocks a student's own kernel may call, with CUB's interface and
 * its rules (collective calls; the aggregate valid in thread or lane 0; a
 * barrier before temporary storage is used again). They are built on the
 * simulator's barriers, shared memory and shuffles, so its checks see them
 * with the lines of the calls. Its block loads and stores and warp utilities
 * are cub/cudasim_cub_load.h's. Whatever else CUB has (scans, exchanges,
 * device-wide algorithms) is missing here: a file that uses it does not
 * compile, and the grader says that the simulator cannot run CUB.
 */
#ifndef CUDASIM_CUB_H
#define CUDASIM_CUB_H

#include <type_traits>

#define CUB_VERSION 200000
#define CUB_PTX_ARCH 0
#define CUB_NAMESPACE_BEGIN namespace cub {
#define CUB_NAMESPACE_END }

/* where a collective was called from, for the barrier's and the shuffle's reports */
#define CUDASIM_CUB_AT const char *file = __builtin_FILE(), int line = __builtin_LINE()

namespace cub {

struct Sum { template <class T> T operator()(const T &a, const T &b) const { return a + b; } };
struct Max { template <class T> T operator()(const T &a, const T &b) const { return a < b ? b : a; } };
struct Min { template <class T> T operator()(const T &a, const T &b) const { return b < a ? b : a; } };

/* a collective's storage where its caller gave none: the block's own slot of shared memory for each type, as a
   __shared__ declaration has */
template <class Storage>
static inline Storage &cudasim_block_storage(void)
{
	static unsigned slot, epoch;
	return *(Storage *)cudasim_shared_at(sizeof(Storage), &slot, &epoch);
}

/* the thread's rank in its block, x fastest, as CUB counts it */
static inline int cudasim_linear_tid(void)
{
	return (int)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}

enum BlockReduceAlgorithm {
	BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
	BLOCK_REDUCE_RAKING,
	BLOCK_REDUCE_WARP_REDUCTIONS,
};

/*
 * A tree of shuffles down a logical warp of `lanes` lanes (a power of two) from lane `first` of the warp:
 * its rank 0 gets op over the ranks below `valid`, the others partial values. One order of operations,
 * whatever order the lanes ran in.
 */
template <class T, class Op>
static inline T cudasim_warp_tree(T v, Op op, int lanes, int first, int rank, int valid, const char *file, int line)
{
	unsigned mask = lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1) << first;
	for (int offset = 1; offset < lanes; offset *= 2) {
		T other = __shfl_down_sync(mask, v, (unsigned)offset, lanes, file, line);
		if (rank % (2 * offset) == 0 && rank + offset < valid)
			v = op(v, other);
	}
	return v;
}

/*
 * BlockReduce<T, X[, algorithm, Y, Z]>: every thread of the block calls Sum or Reduce; thread 0 gets the
 * aggregate. As CUB's warp-reductions algorithm (whichever algorithm is named): each warp's tree of
 * shuffles, its lane 0 puts the warp's value in the storage, a barrier, thread 0 combines them in order.
 */
template <class T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
	  int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
	enum { BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, WARPS = (BLOCK_THREADS + 31) / 32 };
	struct Storage { T warp_aggregate[WARPS]; };

public:
	struct TempStorage : Storage {};

	explicit BlockReduce(TempStorage &temp) : temp_(temp), tid_(cudasim_linear_tid()) {}
	BlockReduce() : temp_(cudasim_block_storage<TempStorage>()), tid_(cudasim_linear_tid()) {}

	template <class Op>
	T Reduce(T input, Op op, CUDASIM_CUB_AT) { return reduce(input, op, BLOCK_THREADS, file, line); }
	template <class Op>
	T Reduce(T input, Op op, int num_valid, CUDASIM_CUB_AT) { return reduce(input, op, num_valid, file, line); }
	template <int N, class Op>
	T Reduce(T (&inputs)[N], Op op, CUDASIM_CUB_AT)
	{
		T v = inputs[0];
		for (int i = 1; i < N; i++)
			v = op(v, inputs[i]);
		return reduce(v, op, BLOCK_THREADS, file, line);
	}
	T Sum(T input, CUDASIM_CUB_AT) { return reduce(input, cub::Sum(), BLOCK_THREADS, file, line); }
	T Sum(T input, int num_valid, CUDASIM_CUB_AT) { return reduce(input, cub::Sum(), num_valid, file, line); }
	template <int N>
	T Sum(T (&inputs)[N], CUDASIM_CUB_AT) { return Reduce(inputs, cub::Sum(), file, line); }

private:
	TempStorage &temp_;
	int tid_;

	template <class Op>
	T reduce(T input, Op op, int num_valid, const char *file, int line)
	{
		int warp = tid_ / 32, lane = tid_ % 32;
		T v = cudasim_warp_tree(input, op, 32, 0, lane, num_valid - warp * 32, file, line);
		if (lane == 0 && warp < WARPS)
			temp_.warp_aggregate[warp] = v;
		cudasim_syncthreads(file, line);
		if (tid_ != 0)
			return v;
		for (int w = 1; w < WARPS && w * 32 < num_valid; w++)
			v = op(v, temp_.warp_aggregate[w]);
		return v;
	}
};

/*
 * WarpReduce<T[, LOGICAL_WARP_THREADS]>: every lane of a logical warp (a power of two of lanes, up to 32)
 * calls Sum or Reduce; its lane 0 gets the aggregate. Shuffles down the logical warp, as CUB's.
 */
template <class T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpReduce {
	static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32 &&
			      (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0,
		      "the simulator's cub::WarpReduce takes a power of two of lanes, up to 32");

public:
	struct TempStorage { T unused; };

	explicit WarpReduce(TempStorage &) {}

	template <class Op>
	T Reduce(T input, Op op, CUDASIM_CUB_AT) { return reduce(input, op, LOGICAL_WARP_THREADS, file, line); }
	template <class Op>
	T Reduce(T input, Op op, int valid_items, CUDASIM_CUB_AT) { return reduce(input, op, valid_items, file, line); }
	T Sum(T input, CUDASIM_CUB_AT) { return reduce(input, cub::Sum(), LOGICAL_WARP_THREADS, file, line); }
	T Sum(T input, int valid_items, CUDASIM_CUB_AT) { return reduce(input, cub::Sum(), valid_items, file, line); }

private:
	template <class Op>
	static T reduce(T input, Op op, int valid, const char *file, int line)
	{
		int lane = cudasim_linear_tid() % 32, first = lane / LOGICAL_WARP_THREADS * LOGICAL_WARP_THREADS;
		return cudasim_warp_tree(input, op, LOGICAL_WARP_THREADS, first, lane - first, valid, file, line);
	}
};

} /* namespace cub */

#endif
