/*
 * CUB's block loads and stores and its warp shuffles for the simulator (cub/cub.cuh,
 * cub/block/block_load.cuh, block_store.cuh and cub/util_ptx.cuh include it): LoadDirectBlocked,
 * LoadDirectStriped, LoadDirectWarpStriped, LoadDirectBlockedVectorized and their stores, BlockLoad and
 * BlockStore with every algorithm CUB names, and ShuffleUp, ShuffleDown and ShuffleIndex (CUDA 13's CUB
 * has no LaneId, CTA_SYNC or DivideAndRoundUp any more). The accesses are CUB's: a blocked load is each
 * thread's ITEMS neighbours (uncoalesced, as on a GPU), a striped one coalesced, a vectorized one four
 * items a load, and the transposing algorithms load striped and exchange through the TempStorage in
 * shared memory (a barrier, or the warp's sync, between), so the simulator's counts and checks see what
 * a GPU does. Items past valid_items are left alone, or given oob_default.
 */
#ifndef CUDASIM_CUB_LOAD_H
#define CUDASIM_CUB_LOAD_H

#include <cub/cudasim_cub.h>

namespace cub {


/* the value of the lane src_offset further on in a logical warp, or the caller's own past last_thread */
template <int LOGICAL_WARP_THREADS, class T>
static inline T ShuffleDown(T input, int src_offset, int last_thread, unsigned member_mask, CUDASIM_CUB_AT)
{
	T got = __shfl_down_sync(member_mask, input, (unsigned)src_offset, LOGICAL_WARP_THREADS, file, line);
	return (int)((unsigned)cudasim_linear_tid() % 32 % LOGICAL_WARP_THREADS) + src_offset <= last_thread ? got : input;
}
template <int LOGICAL_WARP_THREADS, class T>
static inline T ShuffleUp(T input, int src_offset, int first_thread, unsigned member_mask, CUDASIM_CUB_AT)
{
	T got = __shfl_up_sync(member_mask, input, (unsigned)src_offset, LOGICAL_WARP_THREADS, file, line);
	return (int)((unsigned)cudasim_linear_tid() % 32 % LOGICAL_WARP_THREADS) - src_offset >= first_thread ? got : input;
}
template <int LOGICAL_WARP_THREADS, class T>
static inline T ShuffleIndex(T input, int src_lane, unsigned member_mask, CUDASIM_CUB_AT)
{
	return __shfl_sync(member_mask, input, src_lane, LOGICAL_WARP_THREADS, file, line);
}

/* ---------------------------------------------------------------- direct loads and stores */

template <class T, int ITEMS, class In>
static inline void LoadDirectBlocked(int tid, In in, T (&items)[ITEMS])
{
	for (int i = 0; i < ITEMS; i++)
		items[i] = in[tid * ITEMS + i];
}
template <class T, int ITEMS, class In>
static inline void LoadDirectBlocked(int tid, In in, T (&items)[ITEMS], int valid)
{
	for (int i = 0; i < ITEMS; i++)
		if (tid * ITEMS + i < valid)
			items[i] = in[tid * ITEMS + i];
}
template <class T, int ITEMS, class In, class D>
static inline void LoadDirectBlocked(int tid, In in, T (&items)[ITEMS], int valid, D oob_default)
{
	for (int i = 0; i < ITEMS; i++)
		items[i] = (T)oob_default;
	LoadDirectBlocked(tid, in, items, valid);
}

template <int BLOCK_THREADS, class T, int ITEMS, class In>
static inline void LoadDirectStriped(int tid, In in, T (&items)[ITEMS])
{
	for (int i = 0; i < ITEMS; i++)
		items[i] = in[i * BLOCK_THREADS + tid];
}
template <int BLOCK_THREADS, class T, int ITEMS, class In>
static inline void LoadDirectStriped(int tid, In in, T (&items)[ITEMS], int valid)
{
	for (int i = 0; i < ITEMS; i++)
		if (i * BLOCK_THREADS + tid < valid)
			items[i] = in[i * BLOCK_THREADS + tid];
}
template <int BLOCK_THREADS, class T, int ITEMS, class In, class D>
static inline void LoadDirectStriped(int tid, In in, T (&items)[ITEMS], int valid, D oob_default)
{
	for (int i = 0; i < ITEMS; i++)
		items[i] = (T)oob_default;
	LoadDirectStriped<BLOCK_THREADS>(tid, in, items, valid);
}

/* a warp's ITEMS x 32 items, striped across its lanes */
template <class T, int ITEMS, class In>
static inline void LoadDirectWarpStriped(int tid, In in, T (&items)[ITEMS], int valid = 1 << 30)
{
	int lane = tid % 32, first = tid / 32 * 32 * ITEMS;
	for (int i = 0; i < ITEMS; i++)
		if (first + i * 32 + lane < valid)
			items[i] = in[first + i * 32 + lane];
}

/* four (or two) items a load where ITEMS allows and the pointer is aligned for it, as CUB's */
template <class T, int ITEMS>
static inline void LoadDirectBlockedVectorized(int tid, const T *in, T (&items)[ITEMS])
{
	constexpr int V = ITEMS % 4 == 0 && sizeof(T) * 4 <= 16 ? 4 : ITEMS % 2 == 0 && sizeof(T) * 2 <= 16 ? 2 : 1;
	struct alignas(sizeof(T) * V) vec { T v[V]; };
	const T *mine = in + tid * ITEMS;
	if (V == 1 || (uintptr_t)mine % sizeof(vec)) {
		LoadDirectBlocked(tid, in, items);
		return;
	}
	for (int i = 0; i < ITEMS / V; i++) {
		vec x = reinterpret_cast<const vec *>(mine)[i];
		for (int k = 0; k < V; k++)
			items[i * V + k] = x.v[k];
	}
}

template <class T, int ITEMS, class Out>
static inline void StoreDirectBlocked(int tid, Out out, T (&items)[ITEMS], int valid = 1 << 30)
{
	for (int i = 0; i < ITEMS; i++)
		if (tid * ITEMS + i < valid)
			out[tid * ITEMS + i] = items[i];
}
template <int BLOCK_THREADS, class T, int ITEMS, class Out>
static inline void StoreDirectStriped(int tid, Out out, T (&items)[ITEMS], int valid = 1 << 30)
{
	for (int i = 0; i < ITEMS; i++)
		if (i * BLOCK_THREADS + tid < valid)
			out[i * BLOCK_THREADS + tid] = items[i];
}
template <class T, int ITEMS, class Out>
static inline void StoreDirectWarpStriped(int tid, Out out, T (&items)[ITEMS], int valid = 1 << 30)
{
	int lane = tid % 32, first = tid / 32 * 32 * ITEMS;
	for (int i = 0; i < ITEMS; i++)
		if (first + i * 32 + lane < valid)
			out[first + i * 32 + lane] = items[i];
}
template <class T, int ITEMS>
static inline void StoreDirectBlockedVectorized(int tid, T *out, T (&items)[ITEMS])
{
	constexpr int V = ITEMS % 4 == 0 && sizeof(T) * 4 <= 16 ? 4 : ITEMS % 2 == 0 && sizeof(T) * 2 <= 16 ? 2 : 1;
	struct alignas(sizeof(T) * V) vec { T v[V]; };
	T *mine = out + tid * ITEMS;
	if (V == 1 || (uintptr_t)mine % sizeof(vec)) {
		StoreDirectBlocked(tid, out, items);
		return;
	}
	for (int i = 0; i < ITEMS / V; i++) {
		vec x;
		for (int k = 0; k < V; k++)
			x.v[k] = items[i * V + k];
		reinterpret_cast<vec *>(mine)[i] = x;
	}
}

/* ---------------------------------------------------------------- BlockLoad and BlockStore */

enum BlockLoadAlgorithm {
	BLOCK_LOAD_DIRECT,
	BLOCK_LOAD_STRIPED,
	BLOCK_LOAD_VECTORIZE,
	BLOCK_LOAD_TRANSPOSE,
	BLOCK_LOAD_WARP_TRANSPOSE,
	BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED,
};

enum BlockStoreAlgorithm {
	BLOCK_STORE_DIRECT,
	BLOCK_STORE_STRIPED,
	BLOCK_STORE_VECTORIZE,
	BLOCK_STORE_TRANSPOSE,
	BLOCK_STORE_WARP_TRANSPOSE,
	BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED,
};

/* The exchange of blocked and striped arrangements through shared memory, a word of padding every 32. */
template <class T, int THREADS, int ITEMS>
struct cudasim_exchange {
	enum { ITEMS_ALL = THREADS * ITEMS };
	T slot[ITEMS_ALL + ITEMS_ALL / 32 + 1];
	static int at(int index) { return index + index / 32; }

	/* striped (whole block, or each warp's own stripe) to blocked */
	void to_blocked(T (&items)[ITEMS], bool warp, const char *file, int line)
	{
		int tid = cudasim_linear_tid(), lane = tid % 32, base = warp ? tid / 32 * 32 * ITEMS : 0;
		for (int i = 0; i < ITEMS; i++)
			slot[at(base + i * (warp ? 32 : THREADS) + (warp ? lane : tid))] = items[i];
		sync(warp, file, line);
		for (int i = 0; i < ITEMS; i++)
			items[i] = slot[at(base + (warp ? lane : tid) * ITEMS + i)];
	}
	/* blocked to striped */
	void to_striped(T (&items)[ITEMS], bool warp, const char *file, int line)
	{
		int tid = cudasim_linear_tid(), lane = tid % 32, base = warp ? tid / 32 * 32 * ITEMS : 0;
		for (int i = 0; i < ITEMS; i++)
			slot[at(base + (warp ? lane : tid) * ITEMS + i)] = items[i];
		sync(warp, file, line);
		for (int i = 0; i < ITEMS; i++)
			items[i] = slot[at(base + i * (warp ? 32 : THREADS) + (warp ? lane : tid))];
	}
	static void sync(bool warp, const char *file, int line)
	{
		if (warp)
			__syncwarp(0xffffffffu, file, line);
		else
			cudasim_syncthreads(file, line);
	}
};

template <class T, int BLOCK_DIM_X, int ITEMS, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT, int BLOCK_DIM_Y = 1,
	  int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockLoad {
	enum { THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z };
	typedef cudasim_exchange<T, THREADS, ITEMS> exchange;

public:
	struct TempStorage : exchange {};

	explicit BlockLoad(TempStorage &temp) : temp_(temp) {}
	BlockLoad() : temp_(cudasim_block_storage<TempStorage>()) {}

	template <class In>
	void Load(In in, T (&items)[ITEMS], CUDASIM_CUB_AT) { load(in, items, THREADS * ITEMS, false, file, line); }
	template <class In>
	void Load(In in, T (&items)[ITEMS], int valid, CUDASIM_CUB_AT) { load(in, items, valid, true, file, line); }
	template <class In, class D>
	void Load(In in, T (&items)[ITEMS], int valid, D oob_default, CUDASIM_CUB_AT)
	{
		for (int i = 0; i < ITEMS; i++)
			items[i] = (T)oob_default;
		load(in, items, valid, true, file, line);
	}

private:
	TempStorage &temp_;

	template <class In>
	void load(In in, T (&items)[ITEMS], int valid, bool partial, const char *file, int line)
	{
		int tid = cudasim_linear_tid();
		bool warp = ALGORITHM == BLOCK_LOAD_WARP_TRANSPOSE || ALGORITHM == BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED;
		if (ALGORITHM == BLOCK_LOAD_STRIPED)
			LoadDirectStriped<THREADS>(tid, in, items, valid);
		else if (ALGORITHM == BLOCK_LOAD_TRANSPOSE) {
			LoadDirectStriped<THREADS>(tid, in, items, valid);
			temp_.to_blocked(items, false, file, line);
		} else if (warp) {
			LoadDirectWarpStriped(tid, in, items, valid);
			temp_.to_blocked(items, true, file, line);
		} else if (ALGORITHM == BLOCK_LOAD_VECTORIZE && !partial)
			vectorized(tid, in, items);
		else
			LoadDirectBlocked(tid, in, items, valid);
	}
	static void vectorized(int tid, const T *in, T (&items)[ITEMS]) { LoadDirectBlockedVectorized(tid, in, items); }
	static void vectorized(int tid, T *in, T (&items)[ITEMS]) { LoadDirectBlockedVectorized(tid, (const T *)in, items); }
	template <class In>
	static void vectorized(int tid, In in, T (&items)[ITEMS]) { LoadDirectBlocked(tid, in, items); }
};

template <class T, int BLOCK_DIM_X, int ITEMS, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT,
	  int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockStore {
	enum { THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z };
	typedef cudasim_exchange<T, THREADS, ITEMS> exchange;

public:
	struct TempStorage : exchange {};

	explicit BlockStore(TempStorage &temp) : temp_(temp) {}
	BlockStore() : temp_(cudasim_block_storage<TempStorage>()) {}

	template <class Out>
	void Store(Out out, T (&items)[ITEMS], CUDASIM_CUB_AT) { store(out, items, THREADS * ITEMS, false, file, line); }
	template <class Out>
	void Store(Out out, T (&items)[ITEMS], int valid, CUDASIM_CUB_AT) { store(out, items, valid, true, file, line); }

private:
	TempStorage &temp_;

	template <class Out>
	void store(Out out, T (&items)[ITEMS], int valid, bool partial, const char *file, int line)
	{
		int tid = cudasim_linear_tid();
		bool warp = ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE || ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED;
		if (ALGORITHM == BLOCK_STORE_STRIPED)
			StoreDirectStriped<THREADS>(tid, out, items, valid);
		else if (ALGORITHM == BLOCK_STORE_TRANSPOSE) {
			temp_.to_striped(items, false, file, line);
			StoreDirectStriped<THREADS>(tid, out, items, valid);
		} else if (warp) {
			temp_.to_striped(items, true, file, line);
			StoreDirectWarpStriped(tid, out, items, valid);
		} else if (ALGORITHM == BLOCK_STORE_VECTORIZE && !partial)
			vectorized(tid, out, items);
		else
			StoreDirectBlocked(tid, out, items, valid);
	}
	static void vectorized(int tid, T *out, T (&items)[ITEMS]) { StoreDirectBlockedVectorized(tid, out, items); }
	template <class Out>
	static void vectorized(int tid, Out out, T (&items)[ITEMS]) { StoreDirectBlocked(tid, out, items); }
};

} /* namespace cub */

#endif
