/*
 * cooperative_groups.h for the simulator: the groups a kernel launched with
 * <<< >>> may use, on top of cudasim.h's barriers and warp intrinsics, so
 * that their checks (the order check, __syncwarp masks, races) apply.
 *
 *   this_thread_block()            thread_block: sync, thread_rank, size, ...
 *   tiled_partition<N>(parent)     thread_block_tile<N> (N = 1, 2, 4, ..., 32):
 *                                  sync, shfl, shfl_up/down/xor, any, all,
 *                                  ballot, match_any, meta_group_rank/size
 *   tiled_partition(parent, n)     thread_group: sync, thread_rank, size (the block, a
 *                                  tile or a coalesced group convert to one)
 *   coalesced_threads()            coalesced_group: the lanes active here
 *   labeled_partition(g, label), binary_partition(g, pred)
 *                                  coalesced_group: the lanes of g (a warp's tile
 *                                  or a coalesced group) with this lane's label
 *   this_thread(), invoke_one, invoke_one_broadcast
 *   reduce, reduce_update_async, reduce_store_async, inclusive_scan, exclusive_scan
 *                                  (cooperative_groups/reduce.h, scan.h)
 *
 *   memcpy_async, wait, wait_prior (cooperative_groups/memcpy_async.h)
 *
 *   this_grid()                    grid_group: sync (under cudaLaunchCooperativeKernel),
 *                                  thread_rank, size, block_rank, num_blocks, ...
 *
 * Not here: multi-grid groups. A file that names them is graded on a GPU
 * (grader/compile/submission.c says so).
 */
#ifndef CUDASIM_COOPERATIVE_GROUPS_H
#define CUDASIM_COOPERATIVE_GROUPS_H

/* Where the call is, so that the simulator's checks name the kernel's line, not this header's. */
#define CUDASIM_CG_AT const char *file = __builtin_FILE(), int line = __builtin_LINE()

namespace cooperative_groups {

namespace details {

static inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }

static inline unsigned block_rank()
{
	return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

/* The lanes of this thread's warp that exist: a block's last warp may be partial. */
static inline unsigned warp_lanes()
{
	unsigned base = block_rank() & ~31u, left = block_threads() - base;
	return left >= 32 ? 0xffffffffu : (1u << left) - 1;
}

/* The lane of the warp holding rank `rank` of the set bits of `mask`, or 32 if none. */
static inline int lane_of_rank(unsigned mask, unsigned rank)
{
	for (int lane = 0; lane < 32; lane++)
		if (mask >> lane & 1 && rank-- == 0)
			return lane;
	return 32;
}

} /* namespace details */

class thread_block {
public:
	void sync(CUDASIM_CG_AT) const { __syncthreads(file, line); }
	unsigned long long thread_rank() const { return details::block_rank(); }
	unsigned long long size() const { return details::block_threads(); }
	unsigned long long num_threads() const { return details::block_threads(); }
	dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
	dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
	dim3 group_dim() const { return blockDim; }
	dim3 dim_threads() const { return blockDim; }
	bool is_valid() const { return true; }
};

static inline thread_block this_thread_block() { return thread_block(); }

/* The whole grid: its sync() waits for every thread of every block (sched.c, launch.c). */
class grid_group {
public:
	void sync(CUDASIM_CG_AT) const { cudasim_grid_sync(file, line); }
	unsigned long long block_rank() const
	{
		return blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
	}
	unsigned long long num_blocks() const { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }
	unsigned long long thread_rank() const { return block_rank() * details::block_threads() + details::block_rank(); }
	unsigned long long size() const { return num_blocks() * details::block_threads(); }
	unsigned long long num_threads() const { return size(); }
	dim3 group_dim() const { return gridDim; }
	dim3 dim_blocks() const { return gridDim; }
	dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
	bool is_valid() const { return true; }
};

static inline grid_group this_grid() { return grid_group(); }

template <unsigned N, class Parent = void>
class thread_block_tile;
class coalesced_group;

/* Any group, as a function that takes a thread_group sees it (by value, as CUDA's base class): a tile of
   n threads (what tiled_partition(parent, n) returns), the block, a thread_block_tile<N>, or a coalesced
   group's lanes. A tile of more than a warp waits at the block's barrier; a GPU waits for its threads only. */
class thread_group {
public:
	explicit thread_group(unsigned n) : n_(n), lanes_(0), block_(false) {}
	thread_group(const thread_block &) : n_(details::block_threads()), lanes_(0), block_(true) {}
	template <unsigned N, class Parent>
	thread_group(const thread_block_tile<N, Parent> &) : n_(N), lanes_(0), block_(false) {}
	inline thread_group(const coalesced_group &g);
	void sync(CUDASIM_CG_AT) const
	{
		if (lanes_)
			__syncwarp(lanes_, file, line);
		else if (block_ || n_ > 32)
			__syncthreads(file, line);
		else
			__syncwarp(mask(), file, line);
	}
	unsigned long long thread_rank() const
	{
		if (lanes_)
			return __popc(lanes_ & ((1u << (details::block_rank() & 31)) - 1));
		return details::block_rank() % n_;
	}
	unsigned long long size() const { return n_; }
	unsigned long long num_threads() const { return n_; }
	unsigned long long meta_group_rank() const { return lanes_ || block_ ? 0 : details::block_rank() / n_; }
	unsigned long long meta_group_size() const
	{
		return lanes_ || block_ ? 1 : (details::block_threads() + n_ - 1) / n_;
	}
	bool is_valid() const { return true; }
private:
	unsigned mask() const
	{
		unsigned lane = details::block_rank() & 31, first = lane / n_ * n_;
		return (n_ >= 32 ? 0xffffffffu : ((1u << n_) - 1) << first) & details::warp_lanes();
	}
	unsigned n_, lanes_; /* lanes_: a coalesced group's, or 0 */
	bool block_;
};

/* thread_block_tile<N> and thread_block_tile<N, Parent> (what tiled_partition of a parent
 * gives on a GPU) are one tile, converting into each other. */
template <unsigned N, class Parent>
class thread_block_tile {
	static_assert(N == 1 || N == 2 || N == 4 || N == 8 || N == 16 || N == 32,
		      "thread_block_tile<N>: N is a power of two up to 32");
public:
	thread_block_tile() {}
	template <class Other> thread_block_tile(const thread_block_tile<N, Other> &) {}
	void sync(CUDASIM_CG_AT) const { __syncwarp(mask(), file, line); }
	unsigned long long thread_rank() const { return details::block_rank() % N; }
	unsigned long long size() const { return N; }
	unsigned long long num_threads() const { return N; }
	unsigned long long meta_group_rank() const { return details::block_rank() / N; }
	unsigned long long meta_group_size() const { return (details::block_threads() + N - 1) / N; }
	bool is_valid() const { return true; }

	template <class T> T shfl(T var, int src, CUDASIM_CG_AT) const { return __shfl_sync(mask(), var, src, N, file, line); }
	template <class T> T shfl_up(T var, unsigned delta, CUDASIM_CG_AT) const
	{ return __shfl_up_sync(mask(), var, delta, N, file, line); }
	template <class T> T shfl_down(T var, unsigned delta, CUDASIM_CG_AT) const
	{ return __shfl_down_sync(mask(), var, delta, N, file, line); }
	template <class T> T shfl_xor(T var, int lanes, CUDASIM_CG_AT) const
	{ return __shfl_xor_sync(mask(), var, lanes, N, file, line); }
	int any(int pred, CUDASIM_CG_AT) const { return __any_sync(mask(), pred, file, line); }
	int all(int pred, CUDASIM_CG_AT) const { return __all_sync(mask(), pred, file, line); }
	unsigned ballot(int pred, CUDASIM_CG_AT) const { return __ballot_sync(mask(), pred, file, line) >> first_lane(); }
	template <class T> unsigned match_any(T value, CUDASIM_CG_AT) const
	{ return __match_any_sync(mask(), value, file, line) >> first_lane(); }
	/* the simulator's: the tile's lanes of its warp (labeled_partition) */
	static unsigned cudasim_lanes() { return mask(); }
private:
	static unsigned first_lane() { return (details::block_rank() & 31) / N * N; }
	static unsigned mask()
	{
		return (N >= 32 ? 0xffffffffu : ((1u << N) - 1) << first_lane()) & details::warp_lanes();
	}
};

template <unsigned N, class Parent>
static inline thread_block_tile<N, Parent> tiled_partition(const Parent &) { return thread_block_tile<N, Parent>(); }

template <class Parent>
static inline thread_group tiled_partition(const Parent &, unsigned n) { return thread_group(n); }

/* The lanes of a warp that reach this point together. */
class coalesced_group {
public:
	coalesced_group() : mask_(__activemask()) {}
	/* the simulator's: a group of the given lanes of this warp (labeled_partition), and its lanes */
	static coalesced_group cudasim_of(unsigned lanes)
	{
		coalesced_group g(0u, 0);
		g.mask_ = lanes;
		return g;
	}
	unsigned cudasim_lanes() const { return mask_; }
	void sync(CUDASIM_CG_AT) const { __syncwarp(mask_, file, line); }
	unsigned long long thread_rank() const { return __popc(mask_ & ((1u << (details::block_rank() & 31)) - 1)); }
	unsigned long long size() const { return __popc(mask_); }
	unsigned long long num_threads() const { return __popc(mask_); }
	bool is_valid() const { return true; }

	template <class T> T shfl(T var, unsigned rank, CUDASIM_CG_AT) const
	{
		return __shfl_sync(mask_, var, details::lane_of_rank(mask_, rank % size()), 32, file, line);
	}
	template <class T> T shfl_up(T var, unsigned delta, CUDASIM_CG_AT) const
	{
		unsigned r = (unsigned)thread_rank();
		T got = __shfl_sync(mask_, var, details::lane_of_rank(mask_, r >= delta ? r - delta : r), 32, file, line);
		return r >= delta ? got : var;
	}
	template <class T> T shfl_down(T var, unsigned delta, CUDASIM_CG_AT) const
	{
		unsigned r = (unsigned)thread_rank(), n = (unsigned)size();
		T got = __shfl_sync(mask_, var, details::lane_of_rank(mask_, r + delta < n ? r + delta : r), 32, file, line);
		return r + delta < n ? got : var;
	}
	int any(int pred, CUDASIM_CG_AT) const { return __any_sync(mask_, pred, file, line); }
	int all(int pred, CUDASIM_CG_AT) const { return __all_sync(mask_, pred, file, line); }
	unsigned ballot(int pred, CUDASIM_CG_AT) const
	{
		unsigned lanes = __ballot_sync(mask_, pred, file, line), packed = 0, bit = 0;
		for (int lane = 0; lane < 32; lane++)
			if (mask_ >> lane & 1)
				packed |= (lanes >> lane & 1) << bit++;
		return packed;
	}
private:
	coalesced_group(unsigned lanes, int) : mask_(lanes) {}
	unsigned mask_;
};

static inline coalesced_group coalesced_threads() { return coalesced_group(); }

inline thread_group::thread_group(const coalesced_group &g)
	: n_((unsigned)g.size()), lanes_(g.cudasim_lanes()), block_(false) {}

/* The lanes of a warp's group that hold this lane's label, or its predicate's value: a coalesced group
   each (every lane of the parent calls it, as __match_any_sync asks). */
template <class Parent, class Label>
static inline coalesced_group labeled_partition(const Parent &parent, Label label, CUDASIM_CG_AT)
{
	return coalesced_group::cudasim_of(__match_any_sync(parent.cudasim_lanes(), label, file, line));
}

template <class Parent>
static inline coalesced_group binary_partition(const Parent &parent, bool pred, CUDASIM_CG_AT)
{
	return labeled_partition(parent, pred ? 1u : 0u, file, line);
}

/* the thread alone, a tile of one */
static inline thread_block_tile<1> this_thread() { return thread_block_tile<1>(); }

/* CUDA 12's: one thread of the group calls fn (then the group meets, which orders what it did for the
   others here); invoke_one_broadcast hands its result to every thread of the group */
template <class Group, class Fn, class... Args>
static inline void invoke_one(const Group &g, Fn &&fn, Args &&...args)
{
	if (g.thread_rank() == 0)
		fn(args...);
	g.sync();
}

template <class Group, class Fn, class... Args>
static inline auto invoke_one_broadcast(const Group &g, Fn &&fn, Args &&...args) -> decltype(fn(args...))
{
	typename std::remove_cv<typename std::remove_reference<decltype(fn(args...))>::type>::type r{};
	if (g.thread_rank() == 0)
		r = fn(args...);
	return g.shfl(r, 0);
}

template <class Group> static inline void sync(const Group &g, CUDASIM_CG_AT) { g.sync(file, line); }
template <class Group> static inline unsigned long long thread_rank(const Group &g) { return g.thread_rank(); }
template <class Group> static inline unsigned long long group_size(const Group &g) { return g.size(); }

} /* namespace cooperative_groups */

#endif
